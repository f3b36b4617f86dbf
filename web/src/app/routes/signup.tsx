import { Link } from 'react-router-dom';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { SignupForm } from '../../features/auth/components/signup-form';

export default function SignupRoute() {
  return (
    <>
      <title>Create account · AI Trading Assistant</title>
      <AuthLayout
        title="Create your account"
        subtitle="Start paper trading with AI signals for free"
        footer={
          <>
            Already have an account? <Link to="/login">Sign in</Link>
          </>
        }
      >
        <SignupForm />
      </AuthLayout>
    </>
  );
}
