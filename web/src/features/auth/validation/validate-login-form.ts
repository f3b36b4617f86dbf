import { filled, type FormProblem } from './form-problem';

export interface LoginFormValues {
  email: string;
  password: string;
}

export function validateLoginForm(values: LoginFormValues): FormProblem | null {
  if (!filled(values.email) || !values.password) {
    return { title: 'Missing Information', description: 'Please fill in all fields.' };
  }
  return null;
}
