import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { TOAST_DURATION_MS, selectToasts, toastDismissed, toastsSlice, type Toast } from './toast-slice';
import './toaster.css';

type StateWithToasts = { [toastsSlice.reducerPath]: ReturnType<typeof toastsSlice.reducer> };

function ToastCard({ toast }: { toast: Toast }) {
  const dispatch = useDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastDismissed(toast.id)), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id]);

  return (
    // The live-region role sits on an inner element (display: contents keeps the card's grid): a
    // list item with role status or alert is no longer a list item, which axe reports as a list rule.
    <li className={`toast toast--${toast.variant}`} data-testid="toast" data-variant={toast.variant}>
      <div className="toast__region" role={toast.variant === 'destructive' ? 'alert' : 'status'}>
        <span className="toast__icon" aria-hidden="true">
          {toast.variant === 'destructive' ? '!' : '✓'}
        </span>
        <div className="toast__body">
          <p className="toast__title" data-testid="toast-title">
            {toast.title}
          </p>
          {toast.description && (
            <p className="toast__description" data-testid="toast-description">
              {toast.description}
            </p>
          )}
        </div>
        <button type="button" className="toast__close" aria-label="Close notification" onClick={() => dispatch(toastDismissed(toast.id))}>
          ×
        </button>
      </div>
    </li>
  );
}

export function Toaster() {
  const toasts = useSelector((state: StateWithToasts) => selectToasts(state));
  return (
    <ol className="toaster" aria-live="polite" aria-label="Notifications">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} />
      ))}
    </ol>
  );
}
