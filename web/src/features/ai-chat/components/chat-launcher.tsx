/**
 * The floating AI chat button (bottom right). The chat itself is a later issue: the window opens and
 * says so, rather than answering with canned text.
 */
import { useId, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import './chat-launcher.css';

export function ChatLauncher() {
  const [open, setOpen] = useState(false);
  const windowId = useId();
  return (
    <div className="chat-launcher">
      {open && (
        <section id={windowId} className="chat-window" aria-label="AI chat" data-testid="chat-window">
          <header className="chat-window__header">
            <h2>AI Trading Assistant</h2>
            <button type="button" className="btn btn--ghost btn--sm" aria-label="Close AI chat" onClick={() => setOpen(false)}>
              <Icon name="close" size={16} />
            </button>
          </header>
          <p className="coming-soon">
            <span className="badge badge--accent">Coming</span> The AI chat arrives in a later release, for premium members.
          </p>
        </section>
      )}
      <button
        type="button"
        className="chat-launcher__button"
        aria-label={open ? 'Close AI chat' : 'Open AI chat'}
        aria-expanded={open}
        aria-controls={open ? windowId : undefined}
        onClick={() => setOpen((o) => !o)}
        data-testid="chat-button"
      >
        <Icon name={open ? 'close' : 'brain'} size={24} />
      </button>
    </div>
  );
}
