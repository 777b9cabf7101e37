"""The reading helpers every grading system's reader shares: files under the data folder
(`datafolder`) and JSON read safely from them (`jsonfile`). Each system's own reader is in its
package (builder.tdqs, builder.flowmcp, builder.cleo)."""
