/**
 * The bus carries change notices, not facts: at most once, no persistence. Adapters: NATS and
 * in-process. Subjects are dot-separated tokens; `*` matches one token, `>` the rest (NATS rules).
 */
export type BusHandler = (subject: string, payload: unknown) => void;

export interface Bus {
  publish(subject: string, payload: unknown): Promise<void>;
  /** Returns an unsubscribe function. Resolves once the subscription is registered with the server. */
  subscribe(pattern: string, handler: BusHandler): Promise<() => void>;
  close(): Promise<void>;
}
