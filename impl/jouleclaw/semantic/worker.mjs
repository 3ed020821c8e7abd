// The asynchronous half of impl/jouleclaw/semantic/sync.ts: jsonld, shacl-engine and the MCP SDK expose only Promise
// APIs, while the testee protocol's reference adapter answers each request synchronously. This worker runs those
// library calls and hands back plain data; every decision a clause rests on is taken by the TypeScript callers, never
// here. Each request carries a SharedArrayBuffer the caller waits on (Atomics.wait) and is answered on its port.
import { parentPort } from 'node:worker_threads';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import rdfDataModel from '@rdfjs/data-model';
import rdfDataset from '@rdfjs/dataset';
import Validator from 'shacl-engine/Validator.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** An unmodified SDK Server offering echo tools: each answers its arguments back as JSON text. */
function echoServer(tools, capabilities) {
  const server = new Server({ name: 'jouleclaw-echo', version: '1.0.0' }, { capabilities });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((name) => ({ name, description: `echoes its arguments (${name})`, inputSchema: { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (!tools.includes(req.params.name)) return { isError: true, content: [{ type: 'text', text: `no tool ${req.params.name}` }] };
    return { content: [{ type: 'text', text: JSON.stringify(req.params.arguments ?? {}) }] };
  });
  return server;
}

const sessions = new Map();
let nextSession = 0;

const tasks = {
  // JSON-LD to N-Quads; `documents` are the only URLs the loader serves (no network)
  async toRdf({ doc, documents }) {
    const documentLoader = async (url) => {
      if (Object.hasOwn(documents, url)) return { contextUrl: null, documentUrl: url, document: documents[url] };
      throw new Error(`no document is served for ${url} (no network)`);
    };
    return jsonld.toRDF(doc, { format: 'application/n-quads', documentLoader, safe: true });
  },
  // SHACL Core validation of an N-Quads data graph against a Turtle shapes graph
  async validate({ shapesTurtle, dataNquads }) {
    const shapes = rdfDataset.dataset(new Parser().parse(shapesTurtle));
    const data = rdfDataset.dataset(new Parser({ format: 'application/n-quads' }).parse(dataNquads));
    const report = await new Validator(shapes, { factory: rdfDataModel }).validate({ dataset: data });
    return {
      conforms: report.conforms,
      results: report.results.map((r) => ({
        focus: r.focusNode?.term?.value ?? '',
        path: (r.path ?? []).map((p) => (p.predicates ?? []).map((t) => t.value).join('|')).join('/'),
        constraint: r.constraintComponent?.value ?? '',
        message: (r.message ?? []).map((m) => m.value).join('; '),
      })),
    };
  },
};

Object.assign(tasks, {
  // an SDK Client connected in memory to an echo server: the runtime's side of jouleclaw §5
  async mcpClientOpen({ tools }) {
    const [ct, st] = InMemoryTransport.createLinkedPair();
    const server = echoServer(tools, { tools: {} });
    const client = new Client({ name: 'jouleclaw-runtime', version: '1.0.0' }, { capabilities: {} });
    await Promise.all([server.connect(st), client.connect(ct)]);
    const id = `mcp-${++nextSession}`;
    sessions.set(id, { client });
    return id;
  },
  async mcpClientCall({ session, name, args }) {
    const s = sessions.get(session);
    if (!s?.client) throw new Error(`no MCP client session ${session}`);
    const r = await s.client.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('') };
  },
  // an SDK Server whose peer is the caller: each JSON-RPC message handed in is delivered to it, and the messages it
  // sends back until the request is answered are returned (jouleclaw §5.1, the serving side)
  async mcpServerOpen({ tools, capabilities }) {
    const [peer, st] = InMemoryTransport.createLinkedPair();
    const out = [];
    peer.onmessage = (m) => out.push(m);
    await peer.start();
    const server = echoServer(tools, capabilities);
    await server.connect(st);
    const id = `mcp-${++nextSession}`;
    sessions.set(id, { server, peer, out });
    return id;
  },
  async mcpServerMessage({ session, message }) {
    const s = sessions.get(session);
    if (!s?.peer) throw new Error(`no MCP server session ${session}`);
    await s.peer.send(message);
    const answered = () => message.id === undefined || s.out.some((m) => m.id === message.id && m.method === undefined);
    for (let i = 0; i < 200 && !answered(); i++) await new Promise((r) => setTimeout(r, 1));
    if (message.id === undefined) await new Promise((r) => setTimeout(r, 1));
    const sent = s.out.splice(0);
    return { sent, clientCapabilities: s.server.getClientCapabilities() ?? null };
  },
});

parentPort.on('message', async ({ task, payload, signal, port }) => {
  let reply;
  try {
    const fn = tasks[task];
    if (!fn) throw new Error(`unknown task ${task}`);
    reply = { ok: await fn(payload) };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
  port.close();
  const flag = new Int32Array(signal);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
