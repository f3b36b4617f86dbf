/** Reading the real-time connection's state from components (inside RealtimeProvider). */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { MarketTick } from '@papertrade/domain/market/contracts';
import type { JobProgress } from '@papertrade/domain/realtime/contracts';
import type { RealtimeClient } from './realtime-client';
import type { ConnectionStatus, RealtimeState } from './realtime-machine';

export const RealtimeContext = createContext<RealtimeClient | null>(null);

function useRealtimeSelector<T>(select: (state: RealtimeState) => T): T {
  const client = useContext(RealtimeContext);
  if (!client) throw new Error('real-time hooks must be used within a RealtimeProvider');
  const selected = () => select(client.getSnapshot());
  // The same snapshot on a server render (the polling specs render screens to HTML).
  return useSyncExternalStore(client.subscribe, selected, selected);
}

/** connecting, connected or disconnected. */
export function useRealtimeStatus(): ConnectionStatus {
  return useRealtimeSelector((state) => state.status);
}

/** The latest MARKET_UPDATE of this coin since the page loaded, if any. */
export function useLiveTick(coinId: string): MarketTick | undefined {
  return useRealtimeSelector((state) => state.ticks[coinId]);
}

/** The paper bot's status from BOT_STATUS messages; STOPPED until the first one. */
export function useBotStatus(): string {
  return useRealtimeSelector((state) => state.botStatus);
}

/** The latest JOB_PROGRESS of a long job of this user (null id or none yet: undefined). */
export function useJobProgress(jobId: string | null | undefined): JobProgress | undefined {
  return useRealtimeSelector((state) => (jobId ? state.jobs[jobId] : undefined));
}
