import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SignupRequest } from '@papertrade/domain/auth/contracts';
import { describeError } from '../../../lib/api-client';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useSignup } from '../api/signup';
import { validateSignupForm, type SignupFormValues } from '../validation/validate-signup-form';

const empty: SignupFormValues = { firstName: '', lastName: '', email: '', username: '', password: '', confirmPassword: '' };

/** Optional names sent empty count as absent (DESIGN.md section 7), so they are left out. */
function toRequest(values: SignupFormValues): SignupRequest {
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  return {
    email: values.email.trim(),
    username: values.username.trim(),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    password: values.password,
    confirmPassword: values.confirmPassword,
  };
}

export function SignupForm() {
  const [values, setValues] = useState<SignupFormValues>(empty);
  const toast = useToast();
  const navigate = useNavigate();
  const signupMutation = useSignup({
    onSuccess: () => {
      toast({
        title: 'Welcome to AI Trading Bot!',
        description: 'Your account has been created successfully. You can now log in.',
        variant: 'success',
      });
      void navigate('/login');
    },
    onError: (error) => toast({ title: 'Signup Failed', description: describeError(error, 'Signup failed'), variant: 'destructive' }),
  });
  const busy = signupMutation.isPending;

  const field = (name: keyof SignupFormValues) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateSignupForm(values);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    signupMutation.mutate(toRequest(values));
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-label="Create account">
      <div className="auth-form__row">
        <label className="field">
          <span className="field__label">
            First Name <span className="field__optional">(optional)</span>
          </span>
          <input className="input" type="text" autoComplete="given-name" placeholder="Ada" {...field('firstName')} />
        </label>
        <label className="field">
          <span className="field__label">
            Last Name <span className="field__optional">(optional)</span>
          </span>
          <input className="input" type="text" autoComplete="family-name" placeholder="Lovelace" {...field('lastName')} />
        </label>
      </div>
      <label className="field">
        <span className="field__label">Email</span>
        <input className="input" type="email" autoComplete="email" placeholder="you@example.com" autoFocus {...field('email')} />
      </label>
      <label className="field">
        <span className="field__label">Username</span>
        <input className="input" type="text" autoComplete="username" placeholder="satoshi_fan" {...field('username')} />
        <span className="field__hint">3-32 letters, digits, _ or -</span>
      </label>
      <label className="field">
        <span className="field__label">Password</span>
        <input className="input" type="password" autoComplete="new-password" placeholder="At least 6 characters" {...field('password')} />
      </label>
      <label className="field">
        <span className="field__label">Confirm Password</span>
        <input className="input" type="password" autoComplete="new-password" placeholder="Repeat your password" {...field('confirmPassword')} />
      </label>
      <p className="auth-form__notice" data-testid="terms-notice">
        By creating an account you agree to our <strong>Terms of Service</strong> and <strong>Privacy Policy</strong>. Trading here is a
        simulation: no real money is used.
      </p>
      <button type="submit" className="btn btn--primary btn--lg btn--block" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}
