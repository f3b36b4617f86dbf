/**
 * The AI chat's conversation, client-only (spec section 4: closed, open, thinking; STYLE.md: the chat
 * window's state lives in Redux Toolkit). Nothing of a conversation is stored on the server: it lives
 * here for the session (cleared when the signed-in user changes) and its last messages go back with
 * each question as history. Ids and times come in with the actions, so the reducers stay pure.
 *
 * A reply with nothing to say reads CHAT_EMPTY_REPLY_TEXT, a failed call CHAT_FAILURE_TEXT (spec
 * section 8); both are the assistant's messages of the conversation, marked as such.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { CHAT_EMPTY_REPLY_TEXT, CHAT_FAILURE_TEXT, type ChatRole, type Fact } from '@papertrade/domain/assistant/contracts';

export interface ChatMessage {
  id: string;
  role: ChatRole;
  content: string;
  /** ISO-8601. */
  timestamp: string;
  /** The facts an answer used: its figures link to their screens. */
  facts: Fact[];
  /** An answer, or the text standing in for a failed or empty one. */
  kind: 'question' | 'answer' | 'failure' | 'empty';
}

export interface ChatState {
  open: boolean;
  /** Whose conversation this is (the signed-in user's id when it began): another user starts afresh. */
  owner: string | null;
  messages: ChatMessage[];
  /** A reply is pending (the thinking state): nothing more is sent until it comes. */
  pending: boolean;
}

const initialState: ChatState = { open: false, owner: null, messages: [], pending: false };

type Stamp = { id: string; timestamp: string };

export const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    chatOpened(state) {
      state.open = true;
    },
    chatClosed(state) {
      state.open = false;
    },
    questionAsked(state, action: PayloadAction<Stamp & { content: string; owner: string }>) {
      if (state.pending) return;
      const { owner, ...message } = action.payload;
      if (state.owner !== owner) state.messages = [];
      state.owner = owner;
      state.messages.push({ ...message, role: 'user', facts: [], kind: 'question' });
      state.pending = true;
    },
    answerReceived(state, action: PayloadAction<Stamp & { response: string; facts: Fact[] }>) {
      const { response, facts, ...stamp } = action.payload;
      const text = response.trim();
      state.messages.push({ ...stamp, role: 'assistant', content: text || CHAT_EMPTY_REPLY_TEXT, facts: text ? facts : [], kind: text ? 'answer' : 'empty' });
      state.pending = false;
    },
    answerFailed(state, action: PayloadAction<Stamp>) {
      state.messages.push({ ...action.payload, role: 'assistant', content: CHAT_FAILURE_TEXT, facts: [], kind: 'failure' });
      state.pending = false;
    },
    conversationCleared(state) {
      state.messages = [];
      state.owner = null;
      state.pending = false;
    },
  },
  selectors: {
    selectChatOpen: (state) => state.open,
    selectChatMessages: (state) => state.messages,
    selectChatPending: (state) => state.pending,
    selectChatOwner: (state) => state.owner,
  },
});

export const { chatOpened, chatClosed, questionAsked, answerReceived, answerFailed, conversationCleared } = chatSlice.actions;
export const { selectChatOpen, selectChatMessages, selectChatPending, selectChatOwner } = chatSlice.selectors;
export type StateWithChat = { [chatSlice.reducerPath]: ChatState };
