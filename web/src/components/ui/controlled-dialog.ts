/**
 * A modal <dialog> whose open state is React's (`open`): shown with showModal when it turns true,
 * closed when it turns false. Escape goes through the same state: the native `cancel` is prevented and
 * `onClose` asked instead, so the dialog never closes on its own while the state still says open (a
 * quick Escape then Enter on the trigger found the state still true, set it true again, and nothing
 * opened). Focus returns to the button that opened it, as the browser does on close.
 */
import { useEffect, useRef, type SyntheticEvent } from 'react';

export function useControlledDialog(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    onClose();
  };
  return { ref, onCancel };
}
