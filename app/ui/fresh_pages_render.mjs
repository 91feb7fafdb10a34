// Renders public pages with the content of now, for app/ui/fresh_pages.py (which runs this with Node, in the web
// folder so that the server build's packages resolve; it passes the script with `-e`).
//
// stdin:  {"build": "<.web/build/server/index.js>", "paths": ["/", "/about/"], "content": {<state>: {<var>: value}}}
// stdout: {"<path>": "<html>"}
//
// The content is laid over the compiled initial state before the server build is imported (the site layout's module
// code reads globalThis.__PAGE_CONTENT__ then), so the HTML shows it, as the browser's first render will.
import { createRequestHandler } from "react-router";
import { pathToFileURL } from "node:url";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { build, paths, content } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

globalThis.__PAGE_CONTENT__ = content;
process.env.IS_RR_BUILD_REQUEST = "yes"; // a build-time render: what React Router's own prerendering sets
const handler = createRequestHandler(await import(pathToFileURL(build).href), "production");
const pages = {};
for (const path of paths) {
  const response = await handler(new Request(new URL(path, "http://127.0.0.1")));
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  pages[path] = await response.text();
}
process.stdout.write(JSON.stringify(pages));
