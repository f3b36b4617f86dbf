/**
 * The AI assistant's HTTP contract (issue 20; spec dashboard-and-sign-in.md sections 2, 4, 5, 7, 8):
 *
 * - POST /api/ai-chat `{message, history}` -> `{response, facts, intent, assistant}`: premium only
 *   (401 for visitors, 403 'Premium subscription required' for everyone else), the message at most
 *   CHAT_MESSAGE_MAX_CHARS characters, the history at most CHAT_HISTORY_MAX messages (the window
 *   sends the last five), a per-user rate limit. Nothing of a conversation is stored on the server:
 *   the window keeps it for the session and sends the last messages back with each question.
 *
 * `facts` are the figures (and texts) the answer was made from, each with the screen it comes from,
 * so the window can link a figure to where it can be checked: every number in a grounded answer is
 * the `text` of one of them (facts.ts).
 *
 * web/ imports this file: the texts the window shows (the alerts, the failure and empty-reply texts)
 * are the spec's, exactly, and live here once.
 */
import { z } from 'zod';

/** The most characters a question may have (the window counts the same way: UTF-16 units, as JavaScript's length). */
export const CHAT_MESSAGE_MAX_CHARS = 1000;
/** Spec section 9: the last five messages go as history; more is refused rather than cut silently. */
export const CHAT_HISTORY_MAX = 5;
/** An earlier message sent back as history (the assistant's answers are longer than questions). */
export const CHAT_HISTORY_CONTENT_MAX_CHARS = 8000;

/** Spec section 5: the alerts the window shows to whoever may not chat. */
export const CHAT_VISITOR_ALERT = 'Please log in to use the AI chat feature';
export const CHAT_FREE_ALERT = 'AI Chat is a premium feature. Please upgrade to access it.';
/** Spec section 8: what the window says when the call fails, and when the reply is empty. */
export const CHAT_FAILURE_TEXT = "I'm sorry, I'm having trouble connecting to the AI service right now. Please try again later.";
export const CHAT_EMPTY_REPLY_TEXT = 'I apologize, but I encountered an error. Please try again.';
/** What the window says about where the conversation lives (issue 20: say so in the window). */
export const CHAT_NOT_STORED_NOTICE = 'Conversations are not stored on the server: this one is kept only in this browser tab, and is gone when you reload it or sign out.';

/**
 * Text a person typed into the chat: newlines and tabs are allowed (Shift+Enter makes a new line),
 * other control characters (NUL among them), invisible formatting characters other than ZWNJ and ZWJ,
 * and unpaired surrogates are not (the same reasons as safe-text.ts: they hide or reorder text, or are
 * not Unicode at all).
 */
const UNSAFE_CHAT = /(?![\t\n\r\u200C\u200D])[\p{Cc}\p{Cf}\p{Cs}]/u;
const CHAT_TEXT_MESSAGE = 'must not contain control characters other than newlines and tabs (such as NUL), invisible formatting characters or unpaired UTF-16 surrogates';

function chatText(max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !UNSAFE_CHAT.test(s), { error: CHAT_TEXT_MESSAGE, abort: true });
}

export const chatRoles = ['user', 'assistant'] as const;
export type ChatRole = (typeof chatRoles)[number];

/** An earlier message, as the spec's Chat message entity (id, content, role, timestamp); only role and content are read. */
export const chatHistoryMessageSchema = z.strictObject({
  role: z.enum(chatRoles, { error: 'must be user or assistant' }),
  content: chatText(CHAT_HISTORY_CONTENT_MAX_CHARS),
  id: z.string().max(100, 'must be at most 100 characters').optional(),
  timestamp: z.string().max(100, 'must be at most 100 characters').optional(),
});
export type ChatHistoryMessage = z.infer<typeof chatHistoryMessageSchema>;

export const chatRequestSchema = z.strictObject({
  message: chatText(CHAT_MESSAGE_MAX_CHARS)
    .refine((s) => s.trim().length > 0, { error: 'must not be empty' })
    .meta({ description: `The question, 1 to ${CHAT_MESSAGE_MAX_CHARS} characters` }),
  history: z
    .array(chatHistoryMessageSchema, { error: 'must be an array of messages' })
    .max(CHAT_HISTORY_MAX, `must hold at most the last ${CHAT_HISTORY_MAX} messages`)
    .optional()
    .meta({ description: `The conversation's last messages (at most ${CHAT_HISTORY_MAX}), oldest first; not stored` }),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;

/** How a fact's value is written (facts.ts has the formats; they are the web app's, lib/number-format.ts). */
export const factUnits = ['usd', 'price', 'percent', 'quantity', 'count', 'number', 'text', 'time'] as const;
export type FactUnit = (typeof factUnits)[number];

export const factSchema = z.object({
  /** Stable within an answer, e.g. `portfolio.totalValue`, `position.ETH.stopLoss`. */
  id: z.string(),
  label: z.string(),
  /** The value as read (a number, a text, a flag), before formatting; null when unknown. */
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  unit: z.enum(factUnits),
  /** The value as the answer writes it (`$10,234.56`, `2.35%`, `0.5000 ETH`). */
  text: z.string(),
  /** The screen where it can be seen: a path of the web app (`/`, `/trade-history`, `/risk-management?tab=alerts`). */
  source: z.string(),
  /** The read it came from, e.g. `GET /api/portfolio`. */
  api: z.string(),
});
export type Fact = z.infer<typeof factSchema>;

export const chatResponseSchema = z.object({
  /** The answer; the window shows CHAT_EMPTY_REPLY_TEXT when it is empty. */
  response: z.string(),
  /** The facts the answer used, each linked to its screen. */
  facts: z.array(factSchema),
  /** What the question was understood to ask (the grounded assistant's intent; null from a language model). */
  intent: z.string().nullable(),
  /** Which ChatModel answered: the grounded assistant (default, offline) or an OpenAI-compatible endpoint. */
  assistant: z.enum(['grounded', 'openai-compatible']),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;
