/**
 * POST /api/ai-chat (spec section 7): the question and the last messages as history; the answer's
 * `response` and the facts it used. Premium only on the server too; nothing is stored there. The
 * answer lands in the conversation (Redux) whether or not the window is still mounted: the mutation's
 * own callbacks run after an unmount, where those passed to `mutate` would not.
 */
import { useMutation } from '@tanstack/react-query';
import { useDispatch } from 'react-redux';
import { chatResponseSchema, type ChatRequest, type ChatResponse } from '@papertrade/domain/assistant/contracts';
import { sendJson } from '../../../lib/api-client';
import { answerFailed, answerReceived } from '../stores/chat-slice';

export const AI_CHAT_PATH = '/api/ai-chat';

export function sendChatMessage(body: ChatRequest): Promise<ChatResponse> {
  return sendJson('POST', AI_CHAT_PATH, body, chatResponseSchema);
}

const stamp = () => ({ id: crypto.randomUUID(), timestamp: new Date().toISOString() });

export function useSendChatMessage() {
  const dispatch = useDispatch();
  return useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (answer) => dispatch(answerReceived({ ...stamp(), response: answer.response, facts: answer.facts })),
    onError: () => dispatch(answerFailed(stamp())),
  });
}
