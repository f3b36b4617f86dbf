import { useEffect, useRef, type ReactNode } from 'react';
import { keepTabInside } from '../../../components/ui/dialog-focus';

/** A modal <dialog> of this page (Tab wraps inside, Escape closes, focus returns to the button that opened it). */
export function StrategyDialog({ open, title, testId, onClose, children }: { open: boolean; title: string; testId: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `${testId}-title`;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="strategy-dialog card" aria-labelledby={titleId} data-testid={testId} onClose={onClose} onKeyDown={keepTabInside}>
      <h2 id={titleId} className="strategy-dialog__title">
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}
