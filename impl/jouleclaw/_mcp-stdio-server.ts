// An unmodified SDK Server of echo tools on this process's stdin and stdout through the joule-mcp stream transport
// (jouleclaw §5.1), advertising x-jouleclaw/joule-mcp@1 when its first argument is "advertise": the serving side of
// mcp-stream.test.ts's stdio session.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { jouleMcpCapabilities } from './mcp.ts';
import { JouleMcpStreamTransport } from './mcp-stream.ts';

const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: jouleMcpCapabilities(process.argv[2] === 'advertise') });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', description: 'echoes its arguments', inputSchema: { type: 'object' as const } }] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text' as const, text: JSON.stringify(req.params.arguments ?? {}) }] }));
const transport = new JouleMcpStreamTransport(process.stdin, process.stdout, 'server');
transport.onclose = () => process.exit(0);
await server.connect(transport);
