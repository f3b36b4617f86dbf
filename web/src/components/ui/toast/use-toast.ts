import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { toastShown, type ToastInput } from './toast-slice';

/** `const toast = useToast(); toast({ title, description, variant: 'destructive' })` */
export function useToast(): (input: ToastInput) => void {
  const dispatch = useDispatch();
  return useCallback((input: ToastInput) => void dispatch(toastShown(input)), [dispatch]);
}
