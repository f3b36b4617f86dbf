/**
 * The floating AI chat (spec sections 2, 4, 5, 8): a round button at bottom right that opens and
 * closes the window. The conversation is the chat slice's (Redux, for the session): a conversation
 * that belongs to another user than the one signed in now (after a sign-out, in the same tab) is
 * cleared before it can be shown. Closing (the button, the window's close button, Escape) returns
 * focus to this button.
 */
import { useEffect, useId, useRef } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Icon } from '../../../components/ui/icon';
import { useAuth } from '../../../lib/auth/auth-context';
import { chatClosed, chatOpened, conversationCleared, selectChatOpen, selectChatOwner, type StateWithChat } from '../stores/chat-slice';
import { ChatWindow } from './chat-window';
import './chat-launcher.css';

export function ChatLauncher() {
  const dispatch = useDispatch();
  const open = useSelector((state: StateWithChat) => selectChatOpen(state));
  const owner = useSelector((state: StateWithChat) => selectChatOwner(state));
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const windowId = useId();

  useEffect(() => {
    if (owner !== null && owner !== userId) dispatch(conversationCleared());
  }, [owner, userId, dispatch]);

  const close = () => {
    dispatch(chatClosed());
    buttonRef.current?.focus();
  };

  return (
    <div className="chat-launcher">
      {open && <ChatWindow id={windowId} onClose={close} />}
      <button
        ref={buttonRef}
        type="button"
        className="chat-launcher__button"
        aria-label={open ? 'Close AI chat' : 'Open AI chat'}
        aria-expanded={open}
        aria-controls={open ? windowId : undefined}
        onClick={() => (open ? close() : dispatch(chatOpened()))}
        data-testid="chat-button"
      >
        <Icon name={open ? 'close' : 'brain'} size={24} />
      </button>
    </div>
  );
}
