import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Provider as ReduxProvider } from 'react-redux';
import { Toaster } from '../components/ui/toast/toaster';
import { AuthProvider } from '../lib/auth/auth-provider';
import { createStore } from './store';

export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const [store] = useState(createStore);
  return (
    <ReduxProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          {children}
          <Toaster />
        </AuthProvider>
      </QueryClientProvider>
    </ReduxProvider>
  );
}
