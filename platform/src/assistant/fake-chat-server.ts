/**
 * A local stand-in for an OpenAI-compatible Chat Completions endpoint, for tests (no such server is
 * reachable from here): POST /v1/chat/completions answers in the API's documented shapes, a
 * completion with `choices[0].message` holding `content` or `tool_calls` (`finish_reason` 'stop' or
 * 'tool_calls'), or an error body `{error: {message, type, code}}` with its status. It checks the
 * bearer key, records every request (body and headers) and answers what the test scripts: by default
 * a fixed text; `script(fn)` decides per request (a reply, an error, a hang until released, or a body
 * that is not a completion).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: Array<{ role: string; content?: string | null; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
    tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>;
    tool_choice?: unknown;
  };
}

export type FakeChatReply =
  | { content: string }
  | { toolCalls: Array<{ name: string; arguments: unknown; id?: string }> }
  | { status: number; error: { message: string; type: string; code?: string } }
  | { raw: string; status?: number }
  /** Never answers until the test calls release() (or the client gives up). */
  | { hang: true };

export class FakeChatServer {
  readonly requests: FakeChatRequest[] = [];
  private responder: (request: FakeChatRequest, index: number) => FakeChatReply = () => ({ content: 'Hello from the fake model.' });
  private readonly hanging = new Set<() => void>();
  private counter = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly apiKey: string,
  ) {}

  static async start(apiKey = 'sk-test-fake-chat-key'): Promise<FakeChatServer> {
    let fake: FakeChatServer | undefined;
    const server = http.createServer((req, res) => void fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    fake = new FakeChatServer(server, `http://127.0.0.1:${port}/v1`, apiKey);
    return fake;
  }

  /** What to answer from now on; `index` counts the requests since the server started, from 0. */
  script(responder: (request: FakeChatRequest, index: number) => FakeChatReply): void {
    this.responder = responder;
  }

  /** Lets every hanging request go (each then answers a plain completion). */
  release(): void {
    for (const go of [...this.hanging]) go();
    this.hanging.clear();
  }

  /** Requests currently held by a `hang` reply. */
  get held(): number {
    return this.hanging.size;
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: `Unknown route ${req.method} ${req.url}`, type: 'invalid_request_error', code: 'unknown_url' } });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return send(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    let body: FakeChatRequest['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeChatRequest['body'];
    } catch {
      return send(400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } });
    }
    const request: FakeChatRequest = { headers: req.headers, body };
    this.requests.push(request);
    const index = this.counter++;
    let reply = this.responder(request, index);
    if ('hang' in reply) {
      await new Promise<void>((resolve) => {
        const go = () => resolve();
        this.hanging.add(go);
        req.once('close', () => {
          this.hanging.delete(go);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
      reply = { content: 'Released.' };
    }
    if ('raw' in reply) return send(reply.status ?? 200, reply.raw);
    if ('error' in reply) return send(reply.status, { error: { param: null, code: null, ...reply.error } });
    const created = Math.floor(Date.now() / 1000);
    const message =
      'toolCalls' in reply
        ? {
            role: 'assistant',
            content: null,
            tool_calls: reply.toolCalls.map((c, i) => ({ id: c.id ?? `call_${index}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } })),
          }
        : { role: 'assistant', content: reply.content, refusal: null };
    send(200, {
      id: `chatcmpl-fake-${index}`,
      object: 'chat.completion',
      created,
      model: body.model ?? 'fake',
      choices: [{ index: 0, message, logprobs: null, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }
}
