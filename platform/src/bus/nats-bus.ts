/** NATS core pub/sub (at most once): change notices between processes. */
import { connect, JSONCodec, type NatsConnection } from 'nats';
import type { Bus, BusHandler } from './bus';

const codec = JSONCodec();

export class NatsBus implements Bus {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** `prefix` namespaces subjects (tests isolate with it). */
  static async connect(url: string, options: { prefix?: string; name?: string } = {}): Promise<NatsBus> {
    const nc = await connect({ servers: url, name: options.name ?? 'papertrade', maxReconnectAttempts: -1 });
    return new NatsBus(nc, options.prefix ? `${options.prefix}.` : '');
  }

  async publish(subject: string, payload: unknown): Promise<void> {
    this.nc.publish(this.prefix + subject, codec.encode(payload ?? null));
  }

  async subscribe(pattern: string, handler: BusHandler): Promise<() => void> {
    const sub = this.nc.subscribe(this.prefix + pattern, {
      callback: (err, msg) => {
        if (err) return;
        try {
          handler(msg.subject.slice(this.prefix.length), codec.decode(msg.data));
        } catch (error) {
          console.error(`bus handler for ${pattern} failed`, error);
        }
      },
    });
    // Make sure the server knows the subscription before we report it registered.
    await this.nc.flush();
    return () => sub.unsubscribe();
  }

  async close(): Promise<void> {
    await this.nc.drain().catch(() => this.nc.close());
  }
}
