import type { ReactNode } from 'react';
import { useControlledDialog } from '../../../components/ui/controlled-dialog';
import { keepTabInside } from '../../../components/ui/dialog-focus';

/** A modal <dialog> of this page (Tab wraps inside, Escape closes, focus returns to the button that opened it). */
export function StrategyDialog({ open, title, testId, onClose, children }: { open: boolean; title: string; testId: string; onClose: () => void; children: ReactNode }) {
  const { ref, onCancel } = useControlledDialog(open, onClose);
  const titleId = `${testId}-title`;
  return (
    <dialog ref={ref} className="strategy-dialog card" aria-labelledby={titleId} data-testid={testId} onCancel={onCancel} onClose={onClose} onKeyDown={keepTabInside}>
      <h2 id={titleId} className="strategy-dialog__title">
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}
