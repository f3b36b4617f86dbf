import { useControlledDialog } from '../../../components/ui/controlled-dialog';
import { keepTabInside } from '../../../components/ui/dialog-focus';
import { CANCEL_DIALOG_TEXT, CANCEL_DIALOG_TITLE } from '../cancel-text';

/** A modal <dialog> (Tab wraps inside, Escape closes, focus returns to the button that opened it): Keep Subscription, or confirm the cancellation. */
export function CancelDialog({ open, pending, onConfirm, onClose }: { open: boolean; pending: boolean; onConfirm: () => void; onClose: () => void }) {
  const { ref, onCancel } = useControlledDialog(open, onClose);
  return (
    <dialog ref={ref} className="sub-dialog card" aria-labelledby="cancel-dialog-title" aria-describedby="cancel-dialog-text" data-testid="cancel-dialog" onCancel={onCancel} onClose={onClose} onKeyDown={keepTabInside}>
      <h2 id="cancel-dialog-title" className="sub-dialog__title">
        {CANCEL_DIALOG_TITLE}
      </h2>
      <p id="cancel-dialog-text" className="sub-dialog__text">
        {CANCEL_DIALOG_TEXT}
      </p>
      <div className="button-row sub-dialog__actions">
        <button type="button" className="btn" onClick={onClose} disabled={pending}>
          Keep Subscription
        </button>
        <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={pending} data-testid="cancel-confirm">
          {pending ? 'Cancelling...' : 'Cancel Subscription'}
        </button>
      </div>
    </dialog>
  );
}
