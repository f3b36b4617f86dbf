import { useEffect, useRef } from 'react';

/** The spec's cancel dialog text (section 2): 30 more days of access, then Free; reactivation possible until then. */
export const CANCEL_DIALOG_TITLE = 'Cancel Subscription';
export const CANCEL_DIALOG_TEXT =
  'Are you sure you want to cancel your Premium subscription? You will keep access to all Premium features for 30 more days, after which your account will be downgraded to the Free plan. You can reactivate your subscription at any time before the end date.';

/** A modal <dialog> (focus kept inside, Escape closes): Keep Subscription, or confirm the cancellation. */
export function CancelDialog({ open, pending, onConfirm, onClose }: { open: boolean; pending: boolean; onConfirm: () => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="sub-dialog card" aria-labelledby="cancel-dialog-title" aria-describedby="cancel-dialog-text" data-testid="cancel-dialog" onClose={onClose}>
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
