/** A bot decision as the deciders take it from a command (the portfolio's trades, the risk stream's refusals). */
import { ValidationError } from '../shared/errors';
import { botDecisionSchema, type BotDecision } from './contracts';

/** `value` checked as a bot decision: a known rule, its text and its figures; a ValidationError naming `decision` otherwise. */
export function requireBotDecision(value: unknown): BotDecision {
  const parsed = botDecisionSchema.safeParse(value);
  if (!parsed.success) throw new ValidationError(`decision is not a bot decision: ${parsed.error.issues.map((i) => i.message).join('; ')}`, { field: 'decision' });
  return parsed.data;
}
