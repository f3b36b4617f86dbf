import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeError } from '../../../lib/api-client';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useLogin } from '../api/login';
import { validateLoginForm, type LoginFormValues } from '../validation/validate-login-form';

export function LoginForm() {
  const [values, setValues] = useState<LoginFormValues>({ email: '', password: '' });
  const toast = useToast();
  const navigate = useNavigate();
  const loginMutation = useLogin({
    onSuccess: () => {
      toast({ title: 'Welcome back!', description: 'You have been logged in successfully.', variant: 'success' });
      void navigate('/');
    },
    onError: (error) => toast({ title: 'Login Failed', description: describeError(error, 'Login failed'), variant: 'destructive' }),
  });
  const busy = loginMutation.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateLoginForm(values);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    loginMutation.mutate({ email: values.email.trim(), password: values.password });
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-label="Sign in">
      <label className="field">
        <span className="field__label">Email</span>
        <input
          className="input"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          autoFocus
          value={values.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
        />
      </label>
      <div className="field">
        <div className="auth-form__label-row">
          <label className="field__label" htmlFor="login-password">
            Password
          </label>
          <Link className="auth-form__link" to="/forgot-password">
            Forgot password?
          </Link>
        </div>
        <input
          id="login-password"
          className="input"
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder="Your password"
          value={values.password}
          onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
        />
      </div>
      <button type="submit" className="btn btn--primary btn--lg btn--block" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
