/**
 * What goes with a question (spec sections 7 and 9): the conversation's last CHAT_HISTORY_MAX
 * messages before it, oldest first, as the spec's Chat message entity (id, content, role, timestamp).
 */
import { CHAT_HISTORY_MAX, type ChatHistoryMessage } from '@papertrade/domain/assistant/contracts';
import type { ChatMessage } from './stores/chat-slice';

export function historyOf(messages: readonly ChatMessage[]): ChatHistoryMessage[] {
  return messages.slice(-CHAT_HISTORY_MAX).map(({ id, role, content, timestamp }) => ({ id, role, content, timestamp }));
}

/** Whether a typed text may be sent: not empty or blank, and nothing pending (spec section 5). */
export function canSend(text: string, pending: boolean, allowed: boolean): boolean {
  return allowed && !pending && text.trim().length > 0;
}
