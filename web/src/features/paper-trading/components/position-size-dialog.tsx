/**
 * The confirmation a BUY above the maximum position size asks for before it is placed: the figures
 * ("This position would be 20.7% of your portfolio; your maximum is 7%"), Cancel (places nothing)
 * and Place anyway.
 *
 * Keyboard: a native <dialog> opened with showModal makes the page behind it inert; focus starts on
 * Cancel (the safe answer), Tab and Shift+Tab stay inside, Escape cancels, and the caller puts focus
 * back on its submit button.
 */
import { useEffect, useRef } from 'react';
import { keepTabInside } from '../../../components/ui/dialog-focus';
import { positionSizeWarningText, type PositionSizeWarning } from '../position-size';

export function PositionSizeDialog({ warning, side, symbol, onConfirm, onCancel }: {
  /** Open while set. */
  warning: PositionSizeWarning | null;
  side: string;
  symbol: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (warning && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!warning && dialog.open) dialog.close();
  }, [warning]);

  // The dialog closes before the answer goes out: while it is open the page behind is inert, and the
  // caller could not put focus back on its button.
  const answer = (then: () => void) => {
    ref.current?.close();
    then();
  };

  return (
    <dialog
      ref={ref}
      className="trade-dialog"
      role="alertdialog"
      aria-labelledby="position-size-title"
      aria-describedby="position-size-text"
      data-testid="position-size-dialog"
      onKeyDown={keepTabInside}
      // Escape (the dialog's cancel event) is a Cancel.
      onCancel={(event) => {
        event.preventDefault();
        answer(onCancel);
      }}
    >
      {warning && (
        <>
          <h2 id="position-size-title" className="trade-dialog__title">
            Above your maximum position size
          </h2>
          <p id="position-size-text" className="trade-dialog__text" data-testid="position-size-text">
            {positionSizeWarningText(warning)}
          </p>
          <p className="trade-dialog__note">
            The maximum is the one in your risk parameters (Risk Management), which the risk monitor checks; at the current price, before fees.
          </p>
          <div className="button-row trade-dialog__actions">
            <button ref={cancelRef} type="button" className="btn" onClick={() => answer(onCancel)} data-testid="position-size-cancel">
              Cancel
            </button>
            <button type="button" className="btn btn--primary" onClick={() => answer(onConfirm)} data-testid="position-size-confirm">
              Place {side} {symbol} anyway
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
