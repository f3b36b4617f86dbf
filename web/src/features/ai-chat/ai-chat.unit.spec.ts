/**
 * The chat window's rules without a browser: the conversation slice (thinking while a reply is
 * pending, nothing asked meanwhile, the spec's texts for a failed and an empty reply, a new owner
 * starts afresh), the history sent (the last five messages as the Chat message entity), what may be
 * sent (not blank, not while pending, only when allowed), and figures linked to their screens.
 */
import { expect } from 'chai';
import { configureStore } from '@reduxjs/toolkit';
import { CHAT_EMPTY_REPLY_TEXT, CHAT_FAILURE_TEXT, type Fact } from '@papertrade/domain/assistant/contracts';
import { canSend, historyOf } from './chat-history';
import { linkFigures } from './link-figures';
import { answerFailed, answerReceived, chatSlice, conversationCleared, questionAsked, selectChatMessages, selectChatPending, type ChatMessage } from './stores/chat-slice';

const store = () => configureStore({ reducer: { [chatSlice.reducerPath]: chatSlice.reducer } });
let n = 0;
const stamp = () => ({ id: `m${++n}`, timestamp: `2026-03-04T10:00:0${n % 10}.000Z` });
const fact = (id: string, text: string, source = '/'): Fact => ({ id, label: id, value: null, unit: 'usd', text, source, api: 'GET /api/portfolio' });

describe('AI chat (web): the conversation, the history and the figures', () => {
  it('thinking while a reply is pending; a second question is not taken meanwhile; the answer ends it', () => {
    const s = store();
    s.dispatch(questionAsked({ ...stamp(), content: 'How is my portfolio?', owner: 'u1' }));
    expect(selectChatPending(s.getState())).to.equal(true);
    s.dispatch(questionAsked({ ...stamp(), content: 'and now?', owner: 'u1' }));
    expect(selectChatMessages(s.getState()).map((m) => m.content)).to.deep.equal(['How is my portfolio?']);
    s.dispatch(answerReceived({ ...stamp(), response: ' Worth $10.00. ', facts: [fact('portfolio.totalValue', '$10.00')] }));
    expect(selectChatPending(s.getState())).to.equal(false);
    expect(selectChatMessages(s.getState())[1]).to.deep.include({ role: 'assistant', content: 'Worth $10.00.', kind: 'answer' });
  });

  it("a failed call reads the spec's failure text, an empty reply the spec's apology", () => {
    const s = store();
    s.dispatch(questionAsked({ ...stamp(), content: 'a', owner: 'u1' }));
    s.dispatch(answerFailed(stamp()));
    s.dispatch(questionAsked({ ...stamp(), content: 'b', owner: 'u1' }));
    s.dispatch(answerReceived({ ...stamp(), response: '   ', facts: [fact('x', '$1.00')] }));
    const [, failed, , empty] = selectChatMessages(s.getState());
    expect(failed).to.deep.include({ content: CHAT_FAILURE_TEXT, kind: 'failure', role: 'assistant' });
    expect(failed!.content).to.equal("I'm sorry, I'm having trouble connecting to the AI service right now. Please try again later.");
    expect(empty).to.deep.include({ content: CHAT_EMPTY_REPLY_TEXT, kind: 'empty', facts: [] });
    expect(empty!.content).to.equal('I apologize, but I encountered an error. Please try again.');
  });

  it("another user's question starts a new conversation; clearing empties it", () => {
    const s = store();
    s.dispatch(questionAsked({ ...stamp(), content: 'mine', owner: 'u1' }));
    s.dispatch(answerReceived({ ...stamp(), response: 'ok', facts: [] }));
    s.dispatch(questionAsked({ ...stamp(), content: 'theirs', owner: 'u2' }));
    expect(selectChatMessages(s.getState()).map((m) => m.content)).to.deep.equal(['theirs']);
    s.dispatch(conversationCleared());
    expect(selectChatMessages(s.getState())).to.deep.equal([]);
    expect(selectChatPending(s.getState())).to.equal(false);
  });

  it('the history is the last five messages, oldest first, as id, role, content and timestamp', () => {
    const messages: ChatMessage[] = Array.from({ length: 7 }, (_v, i) => ({ id: `h${i}`, role: i % 2 === 0 ? 'user' : 'assistant', content: `c${i}`, timestamp: `t${i}`, facts: [], kind: i % 2 === 0 ? 'question' : 'answer' }));
    expect(historyOf(messages)).to.deep.equal([2, 3, 4, 5, 6].map((i) => ({ id: `h${i}`, role: i % 2 === 0 ? 'user' : 'assistant', content: `c${i}`, timestamp: `t${i}` })));
    expect(historyOf(messages.slice(0, 2))).to.have.length(2);
    expect(historyOf([])).to.deep.equal([]);
  });

  it('sends only a text that is not blank, nothing while pending, and only when allowed', () => {
    expect(canSend('hi', false, true)).to.equal(true);
    expect(canSend('', false, true)).to.equal(false);
    expect(canSend('  \n\t ', false, true)).to.equal(false);
    expect(canSend('hi', true, true)).to.equal(false);
    expect(canSend('hi', false, false)).to.equal(false);
  });

  it('links each figure to its screen, the longest first, only where it stands whole', () => {
    const facts = [fact('total', '$3,038.00', '/'), fact('count', '3', '/risk-management?tab=active-trades'), fact('pct', '2.5%', '/risk-management'), fact('name', 'Ann', '/settings')];
    const segments = linkFigures('Ann: $3,038.00 in 3 positions, 30 days, 12.5% and 2.5%; ratio 2.55', facts);
    expect(segments.filter((s) => s.fact).map((s) => [s.text, s.fact!.source])).to.deep.equal([
      ['$3,038.00', '/'],
      ['3', '/risk-management?tab=active-trades'],
      ['2.5%', '/risk-management'],
    ]);
    expect(segments.map((s) => s.text).join('')).to.equal('Ann: $3,038.00 in 3 positions, 30 days, 12.5% and 2.5%; ratio 2.55');
    expect(linkFigures('no figures here', facts)).to.deep.equal([{ text: 'no figures here' }]);
  });
});
