// Writes the brotli and gzip copies that the static server prefers to each given page, as the build's own
// compression step does (.web/compress-static.js): each through a temporary file, renamed into place.
import * as zlib from "node:zlib";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const files = JSON.parse(readFileSync(0, "utf8"));
for (const file of files) {
  const raw = readFileSync(file);
  const copies = {
    ".br": zlib.brotliCompressSync(raw, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
    ".gz": zlib.gzipSync(raw, { level: 9 }),
  };
  for (const [suffix, data] of Object.entries(copies)) {
    writeFileSync(`${file}${suffix}.tmp-${process.pid}`, data);
    renameSync(`${file}${suffix}.tmp-${process.pid}`, `${file}${suffix}`);
  }
}
