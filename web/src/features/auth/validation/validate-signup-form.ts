import { MIN_PASSWORD_LENGTH } from '@papertrade/domain/auth/contracts';
import { filled, type FormProblem } from './form-problem';

export interface SignupFormValues {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

/** Checked in the spec's order: required fields, then the confirmation, then the length. */
export function validateSignupForm(values: SignupFormValues): FormProblem | null {
  if (!filled(values.email) || !filled(values.username) || !values.password) {
    return { title: 'Missing Information', description: 'Please fill in all required fields.' };
  }
  if (values.password !== values.confirmPassword) {
    return { title: 'Password Mismatch', description: 'Please make sure your passwords match.' };
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    return { title: 'Password Too Short', description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.` };
  }
  return null;
}
