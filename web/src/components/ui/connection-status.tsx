import { useRealtimeStatus } from '../../lib/realtime/realtime-hooks';

/** The dashboard header's status indicator (spec section 2): 'Live Data' when connected, else 'Disconnected'. */
export function ConnectionStatus() {
  const status = useRealtimeStatus();
  const live = status === 'connected';
  return (
    <span className={`connection-status${live ? ' connection-status--live' : ''}`} role="status" data-testid="connection-status" data-status={status}>
      <span className="connection-status__dot" aria-hidden="true" />
      {live ? 'Live Data' : 'Disconnected'}
    </span>
  );
}
