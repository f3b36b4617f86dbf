/**
 * The AI chat port (DESIGN.md section 4: "AI chat"): a `ChatModel` answers a question from the
 * caller's own data through a `ChatToolbox`, the registry of typed look-ups bound to that caller
 * (query-api/src/assistant/assistant-tools.ts builds one per request, so a tool can only ever read the
 * caller's data). Two adapters:
 *
 * - GroundedChatModel (grounded-chat-model.ts), the default, offline: intent recognition and answer
 *   templates from domain/src/assistant; every number in its answers is one of the facts it returns.
 * - OpenAiCompatibleChatModel (openai-chat-model.ts), when CHAT_API_URL is set: the same facts and the
 *   same tools, offered to a language model by function calling.
 *
 * A model that cannot answer throws BadGatewayError (an error or a malformed answer) or
 * GatewayTimeoutError (no answer in time), both with the spec's failure text (CHAT_FAILURE_TEXT).
 */
import { z } from 'zod';
import type { ChatHistoryMessage, Fact } from '@papertrade/domain/assistant/contracts';
import { collectFacts, isFact } from '@papertrade/domain/assistant/facts';
import { toolDescriptions, toolInputs, type ParsedToolInput, type ToolInput, type ToolName, type ToolResults } from '@papertrade/domain/assistant/tools';
import { DomainError, ValidationError } from '@papertrade/domain/shared/errors';

export interface ChatModelRequest {
  message: string;
  /** The conversation's last messages, oldest first (the client keeps the conversation; nothing is stored here). */
  history: readonly Pick<ChatHistoryMessage, 'role' | 'content'>[];
  tools: ChatToolbox;
}

export interface ChatModelReply {
  response: string;
  facts: Fact[];
  intent: string | null;
}

export interface ChatModel {
  readonly kind: 'grounded' | 'openai-compatible';
  reply(request: ChatModelRequest): Promise<ChatModelReply>;
}

/** One look-up: a name, what it does (for a language model), its zod input, and a function of the caller's data. */
export interface ChatTool {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType;
  run(input: unknown): Promise<unknown>;
}

/**
 * A tool of the registry in domain/src/assistant/tools.ts, typed by its name: the input parsed with
 * the registry's schema, the result the registry's type.
 */
export function chatTool<N extends ToolName>(name: N, run: (input: ParsedToolInput<N>) => Promise<ToolResults[N]>): ChatTool {
  return { name, description: toolDescriptions[name], input: toolInputs[name], run: (input) => run(input as ParsedToolInput<N>) };
}

export type ToolOutcome = { ok: true; result: unknown; facts: Fact[] } | { ok: false; error: string };

/** The OpenAI function-calling shape of a tool. */
export interface FunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The tools bound to one caller. */
export class ChatToolbox {
  private readonly byName: ReadonlyMap<string, ChatTool>;

  constructor(readonly tools: readonly ChatTool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** A registered tool with input the code wrote (the grounded assistant's plan): errors propagate. */
  async run<N extends ToolName>(name: N, input: ToolInput<N>): Promise<ToolResults[N]> {
    const tool = this.byName.get(name);
    if (!tool) throw new Error(`no chat tool named ${name}`);
    return (await tool.run(tool.input.parse(input))) as ToolResults[N];
  }

  /**
   * A tool a language model asked for, with the input it wrote: an unknown name, input that does not
   * parse, or a read that is refused (a domain error, e.g. no closed candle yet) is an outcome to tell
   * the model, not a failure of the request.
   */
  async call(name: string, input: unknown): Promise<ToolOutcome> {
    const tool = this.byName.get(name);
    if (!tool) return { ok: false, error: `There is no tool named ${JSON.stringify(name)}; the tools are ${[...this.byName.keys()].join(', ')}.` };
    const parsed = tool.input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: `Invalid input for ${name}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}` };
    try {
      const result = await tool.run(parsed.data);
      return { ok: true, result, facts: collectFacts(result) };
    } catch (error) {
      if (error instanceof DomainError && !(error instanceof ValidationError)) return { ok: false, error: error.message };
      throw error;
    }
  }

  /** The tools as function-calling definitions, their parameters the JSON Schemas of their zod inputs. */
  functionTools(): FunctionTool[] {
    return this.tools.map((t) => {
      const { $schema: _dialect, ...parameters } = z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      return { type: 'function', function: { name: t.name, description: t.description, parameters } };
    });
  }
}

/**
 * A tool's result as a language model reads it: JSON, each fact as `{id, label, value, unit, text}`
 * (the screen links are the window's business), the other fields (a definition's text) as they are.
 */
export function toolResultJson(result: unknown): string {
  return JSON.stringify(result, (_key, value: unknown) => {
    if (isFact(value)) return { id: value.id, label: value.label, value: value.value, unit: value.unit, text: value.text };
    return value;
  });
}
