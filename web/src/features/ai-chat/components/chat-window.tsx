/**
 * The AI chat window (spec sections 4, 5 and 8; issue 20):
 * - signed in and Premium: a text box where Enter sends and Shift+Enter starts a new line; an empty
 *   or blank message is not sent, nor anything while a reply is pending (the thinking state shows);
 *   the last five messages go as history; a failed call reads CHAT_FAILURE_TEXT, an empty reply
 *   CHAT_EMPTY_REPLY_TEXT;
 * - anyone else: the text box disabled and the spec's alert, with the way on (sign in, upgrade);
 * - figures in an answer link to the screen they come from (link-figures.ts); the window says the
 *   conversation is not stored on the server.
 * Keyboard: opening focuses the text box (or the alert's link), Escape closes from anywhere inside.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { CHAT_FREE_ALERT, CHAT_MESSAGE_MAX_CHARS, CHAT_NOT_STORED_NOTICE, CHAT_VISITOR_ALERT } from '@papertrade/domain/assistant/contracts';
import { Icon } from '../../../components/ui/icon';
import { useAuth } from '../../../lib/auth/auth-context';
import { useSendChatMessage } from '../api/send-chat-message';
import { canSend, historyOf } from '../chat-history';
import { linkFigures } from '../link-figures';
import { questionAsked, selectChatMessages, selectChatPending, type ChatMessage, type StateWithChat } from '../stores/chat-slice';

export function ChatWindow({ id, onClose }: { id: string; onClose: () => void }) {
  const dispatch = useDispatch();
  const { user } = useAuth();
  const allowed = user !== null && isPremium(user);
  const messages = useSelector((state: StateWithChat) => selectChatMessages(state));
  const pending = useSelector((state: StateWithChat) => selectChatPending(state));
  const send = useSendChatMessage();
  const [draft, setDraft] = useState('');
  const titleId = useId();
  const inputId = useId();
  const noticeId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const alertLinkRef = useRef<HTMLAnchorElement>(null);
  const logRef = useRef<HTMLDivElement>(null);

  // On opening only (the window mounts when it opens): a change of tier while open does not move the focus.
  const openedAllowed = useRef(allowed);
  useEffect(() => {
    (openedAllowed.current ? inputRef.current : alertLinkRef.current)?.focus();
  }, []);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages.length, pending]);

  const submit = () => {
    if (!user || !canSend(draft, pending, allowed)) return;
    const content = draft.trim();
    const history = historyOf(messages);
    dispatch(questionAsked({ id: crypto.randomUUID(), timestamp: new Date().toISOString(), content, owner: user.id }));
    setDraft('');
    send.mutate({ message: content, history });
  };

  const onInputKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <section
      id={id}
      className="chat-window"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      data-testid="chat-window"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <header className="chat-window__header">
        <h2 id={titleId}>AI Trading Assistant</h2>
        <button type="button" className="btn btn--ghost btn--sm" aria-label="Close AI chat" onClick={onClose}>
          <Icon name="close" size={16} />
        </button>
      </header>

      {user === null && (
        <p className="chat-window__alert" role="alert" data-testid="chat-alert">
          {CHAT_VISITOR_ALERT}.{' '}
          <Link ref={alertLinkRef} to="/login">
            Log in
          </Link>
        </p>
      )}
      {user !== null && !allowed && (
        <p className="chat-window__alert" role="alert" data-testid="chat-alert">
          {CHAT_FREE_ALERT}{' '}
          <Link ref={alertLinkRef} to="/subscription">
            Upgrade to Premium
          </Link>
        </p>
      )}

      <div ref={logRef} className="chat-window__log" role="log" aria-label="Conversation" aria-busy={pending} tabIndex={0} data-testid="chat-messages">
        {messages.length === 0 && allowed && !pending && (
          <p className="chat-window__hint">Ask about your portfolio, positions, trades and why they happened, signals, indicators, your risk settings and alerts, or what a trading term means.</p>
        )}
        {messages.map((m) => (
          <ChatBubble key={m.id} message={m} />
        ))}
        {pending && (
          <p className="chat-bubble chat-bubble--assistant chat-bubble--thinking" data-testid="chat-thinking">
            <span className="visually-hidden">The assistant is </span>Thinking<span aria-hidden="true" className="chat-dots" />
          </p>
        )}
      </div>

      <form
        className="chat-window__form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          Message to the assistant
        </label>
        <textarea
          ref={inputRef}
          id={inputId}
          className="input chat-window__input"
          rows={2}
          value={draft}
          maxLength={CHAT_MESSAGE_MAX_CHARS}
          disabled={!allowed}
          placeholder={allowed ? 'Ask a question (Enter sends, Shift+Enter for a new line)' : ''}
          aria-describedby={noticeId}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onInputKey}
          data-testid="chat-input"
        />
        <button type="submit" className="btn btn--primary btn--sm" disabled={!canSend(draft, pending, allowed)} data-testid="chat-send">
          Send
        </button>
      </form>
      <p id={noticeId} className="chat-window__notice">
        {CHAT_NOT_STORED_NOTICE}
      </p>
    </section>
  );
}

function ChatBubble({ message }: { message: ChatMessage }) {
  const mine = message.role === 'user';
  return (
    <div className={`chat-bubble chat-bubble--${mine ? 'user' : 'assistant'}${message.kind === 'failure' || message.kind === 'empty' ? ' chat-bubble--error' : ''}`} data-testid={`chat-message-${message.role}`} data-kind={message.kind}>
      <span className="visually-hidden">{mine ? 'You: ' : 'Assistant: '}</span>
      {mine
        ? message.content
        : linkFigures(message.content, message.facts).map((segment, i) =>
            segment.fact ? (
              <Link key={i} to={segment.fact.source} className="chat-figure" title={`${segment.fact.label} (${segment.fact.api})`} data-fact={segment.fact.id}>
                {segment.text}
              </Link>
            ) : (
              <span key={i}>{segment.text}</span>
            ),
          )}
    </div>
  );
}
