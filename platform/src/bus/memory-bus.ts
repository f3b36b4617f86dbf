/** In-process bus for the embedded mode: same subject rules as NATS, delivery on the next tick. */
import type { Bus, BusHandler } from './bus';

export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

export class MemoryBus implements Bus {
  private readonly subscriptions = new Set<{ pattern: string; handler: BusHandler }>();
  private closed = false;

  async publish(subject: string, payload: unknown): Promise<void> {
    if (this.closed) return;
    // Serialise like a network bus would, so nobody shares mutable objects through it.
    const copy: unknown = JSON.parse(JSON.stringify(payload ?? null));
    for (const sub of [...this.subscriptions]) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      setImmediate(() => {
        if (!this.subscriptions.has(sub)) return;
        try {
          sub.handler(subject, copy);
        } catch (error) {
          console.error(`bus handler for ${sub.pattern} failed`, error);
        }
      });
    }
  }

  async subscribe(pattern: string, handler: BusHandler): Promise<() => void> {
    const sub = { pattern, handler };
    this.subscriptions.add(sub);
    return () => this.subscriptions.delete(sub);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriptions.clear();
  }
}
