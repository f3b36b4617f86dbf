import { Link } from 'react-router-dom';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { LoginForm } from '../../features/auth/components/login-form';

export default function LoginRoute() {
  return (
    <>
      <title>Sign in · AI Trading Assistant</title>
      <AuthLayout
        title="Welcome back"
        subtitle="Sign in to your trading account"
        footer={
          <>
            Don&apos;t have an account? <Link to="/signup">Sign up</Link>
          </>
        }
      >
        <LoginForm />
      </AuthLayout>
    </>
  );
}
