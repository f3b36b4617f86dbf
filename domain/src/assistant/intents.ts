/**
 * What a question asks: the grounded assistant's intent recognition (issue 20). Keywords and
 * patterns, no language model: each intent has a table of example questions in intents.unit.spec.ts,
 * and a question none of them fits is `unknown` (the answer then says it is outside what the
 * assistant knows, rather than guess).
 *
 * Besides the intent: the coin the question names (by symbol or name; the symbols that are also
 * English words, LINK, DOT and UNI, only in capitals), the term it names (glossary.ts), and BUY or
 * SELL when it asks about one side. A follow-up that only names a coin ("and BTC?") takes the intent
 * of the previous question in the history.
 */
import { coins, type CoinSymbol } from '../market/coins';
import type { ChatHistoryMessage } from './contracts';
import { termNames, type GlossaryTerm } from './glossary';
import { parseWhatIf, type WhatIfAsk } from './what-if';

export const intents = [
  'greeting',
  'help',
  'who_am_i',
  'portfolio',
  'pnl_today',
  'pnl_total',
  'positions',
  'recent_trades',
  'trade_reason',
  'bot_refusals',
  'trade_stats',
  'bot_status',
  'signal',
  'indicators',
  'price',
  'risk_profile',
  'risk_status',
  'alerts',
  'subscription',
  'model',
  'explain',
  'what_if',
  'my_backtests',
  'prediction',
  'action',
  'unknown',
] as const;
export type Intent = (typeof intents)[number];

export interface Recognised {
  intent: Intent;
  symbol: CoinSymbol | null;
  term: GlossaryTerm | null;
  side: 'BUY' | 'SELL' | null;
  /** A what-if's setting, value and period (what-if.ts), on the what_if intent only. */
  whatIf?: WhatIfAsk;
}

/** Intents whose answer is about one coin (a follow-up naming another coin keeps the intent). */
const COIN_INTENTS: ReadonlySet<Intent> = new Set(['signal', 'indicators', 'price', 'positions', 'recent_trades', 'trade_reason', 'bot_refusals']);
const INDICATOR_TERMS: ReadonlySet<GlossaryTerm> = new Set(['rsi', 'macd', 'moving_average', 'sma', 'ema', 'volume']);

/** Lower case, straight apostrophes, one space. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Whole words (letters and digits around do not continue it). */
const wordRe = (phrase: string, flags = '') => new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase).replace(/ /g, '[\\s-]+')}(?![\\p{L}\\p{N}])`, `u${flags}`);

/** Symbols that are also common English words: only in capitals ("LINK", not "link"). */
const CAPITALS_ONLY: ReadonlySet<CoinSymbol> = new Set(['LINK', 'DOT', 'UNI']);
const EXTRA_NAMES: Partial<Record<CoinSymbol, string[]>> = { ETH: ['ether'], BNB: ['binance coin', 'binance'], AVAX: ['avalanche'], MATIC: ['polygon'], DOT: ['polkadot'] };

const coinMatchers: ReadonlyArray<{ symbol: CoinSymbol; lower: RegExp[]; exact: RegExp | null }> = coins.map((coin) => ({
  symbol: coin.symbol,
  lower: [coin.name.toLowerCase(), ...(EXTRA_NAMES[coin.symbol] ?? []), ...(CAPITALS_ONLY.has(coin.symbol) ? [] : [coin.symbol.toLowerCase(), `${coin.symbol.toLowerCase()}'s`])].map((n) => wordRe(n)),
  exact: CAPITALS_ONLY.has(coin.symbol) ? wordRe(coin.symbol) : null,
}));

/** The coin a question names first (by its place in the question), or null. */
export function findCoin(original: string): CoinSymbol | null {
  const lower = normalise(original);
  let best: { symbol: CoinSymbol; index: number } | null = null;
  for (const m of coinMatchers) {
    for (const re of m.lower) {
      const found = re.exec(lower);
      if (found && (!best || found.index < best.index)) best = { symbol: m.symbol, index: found.index };
    }
    const exact = m.exact?.exec(original);
    if (exact && (!best || exact.index < best.index)) best = { symbol: m.symbol, index: exact.index };
  }
  return best?.symbol ?? null;
}

/** Each term name's pattern, with its first word: a question without that word cannot match (a cheap test before the pattern). */
const termMatchers = termNames.map(({ name, term }) => ({ re: wordRe(name), first: name.split(/[\s-]/)[0]!, term }));
/** The term a question names (the longest name found), or null. */
export function findTerm(text: string): GlossaryTerm | null {
  const lower = normalise(text);
  for (const { re, first, term } of termMatchers) if (lower.includes(first) && re.test(lower)) return term;
  return null;
}

const test = (re: RegExp, text: string) => re.test(text);

const GREETING_ONLY = /^(hi|hello|hey|hiya|yo|greetings|good (morning|afternoon|evening|day))( there)?( assistant| bot)?[\s!.,?]*$/;
const HELP = /\b(help|what can you (do|answer|tell|help)|what do you know|how can you help|what (questions )?can i ask|what are you|who are you)\b/;
const WHAT_IF = /\bwhat if\b|\bwhat would (have )?happen|\bif (i|my) (had|were|was|set|used|changed|have|would)\b|\bwould i have\b|\bhad i\b|\bsuppose (i|my)\b|\bwhat would my\b/;
const PREDICTION_WORD = /\b(predict(ion|ions)?|forecast|going to|gonna|tomorrow|next (week|month|year)|price target|will (it|eth|btc|the price|[a-z]+) (go|be|rise|fall|drop|crash|pump|reach|moon|hit))\b/;
const PRICE_MOVE = /\b(price|go up|go down|rise|fall|drop|crash|pump|moon|be worth|reach|hit|cost)\b/;
const DEFINITIONAL = /\b(what('s| is| are| does| do)|explain|define|definition|meaning|mean|means|how (does|do|is|are) .*\b(work|works|computed|calculated|measured|set|placed)|tell me about|describe)\b/;
const PERSONAL = /\b(my|mine|me|i|i'm|i've|am i|do i|have i)\b/;
const NOW = /\b(current|currently|now|today|latest|right now|at the moment)\b/;
const WHY = /\bwhy\b|\bwhat (made|caused)\b|\breason\b|\bhow come\b/;
const REFUSAL = /\b(not|n't|didn't|did not|doesn't|refus\w*|reject\w*|skip\w*|ignor\w*|declin\w*|block\w*|no trade|nothing)\b/;
const TRADE_WORD = /\b(buy|bought|sell|sold|trade|trades|traded|position|enter\w*|entry|exit\w*|close|closed|open|opened|stopped out|order)\b/;
const ALERTS = /\b(alerts?|warnings?|notifications?)\b/;
const SUBSCRIPTION = /\b(subscription|subscribed|my plan|what plan|which plan|plan am i|premium|billing|renew\w*|cancel\w*|my tier|paying|pay for)\b/;
const MODEL = /\b(model|models|accuracy|accurate|ml|machine learning|neural( network)?|verdict|baseline|how good (is|are) (the|your) (ai|signals|predictions)|trust the (ai|signals)|is the ai)\b/;
const BOT = /\bbot\b/;
const BOT_STATE = /\b(running|active|on|off|status|started|stopped|paused|working|doing|state|trading|up)\b/;
const RISK_STATUS = /\b(my risk(?! (settings|profile|parameters|rules|management|limits))|daily loss (used|left|remaining)|loss limit (used|left)|how (close|far) (am i|is it|are we)|how much (could|can|would|might|will) i lose|at risk|exposure|risk (now|today|status|level)|how risky|drawdown|drawn down|lose if)\b/;
const RISK_STATUS_CONTEXT = /\b(used|left|remaining|how close|reached|hit|now|today|currently|current)\b/;
const RISK_PROFILE = /\b(risk (settings|profile|parameters|rules|management|limits)|stop[- ]?loss|take[- ]?profit|position size|max(imum)? (position|drawdown|daily|concurrent)|daily loss limit|kelly|reward ?\/? ?risk|risk ?\/? ?reward|correlation limit|volatility threshold|stop type|trailing|bot settings|settings)\b/;
const WHO = /\b(who am i|my name|my username|my account|my profile|what's my name|signed in as)\b/;
const POSITIONS = /\b(positions?|holdings?|holding|what do i (own|hold|have)|open trades|my coins|bags?)\b/;
/** "How much ETH do I have": about a position only when it names a coin ("how much cash" is the portfolio). */
const HOLD_COIN = /\b(how much( of)? [\w']+ do i (own|hold|have)|do i (own|hold|have) any)\b/;
const TRADE_STATS = /\b(win ?rate|how many trades|number of trades|trade count|average trade|stats|statistics|winning trades|losing trades|hit rate)\b/;
const RECENT_TRADES = /\b(trades?|history|bought|sold|orders?|fills?|transactions?|did i buy|did i sell|last buy|last sell)\b/;
const TODAY = /\b(today|today's|daily|24h|24 ?hours?|this morning|since midnight)\b/;
const PNL = /(p&l|\bpnl\b|\bp\/l\b|\bprofits?\b|\bloss(es)?\b|\blos(e|ing|t)\b|\bmade\b|\bmake\b|\bgains?\b|\bearn\w*|\bup\b|\bdown\b|\bperform\w*|\bdoing\b|\breturns?\b)/;
const PNL_TOTAL = /(p&l|\bpnl\b|\bp\/l\b|\bprofits?\b|\blosses\b|\bmade\b|\bmake\b|\bgains?\b|\bearn\w*|\breturns?\b|\bperformance\b|\bperform\w*|\bup or down\b|\boverall\b|\ball[- ]time\b)/;
const SIGNAL = /\b(signals?|should i (buy|sell)|buy or sell|sell or buy|recommend\w*|bullish|bearish|good time to|what does the ai say|ai say)\b/;
const INDICATORS = /\b(indicators?|technicals?|technical analysis)\b/;
const PRICE = /\b(price|prices|worth|trading at|cost|how much is|value of|quote)\b/;
const PORTFOLIO = /\b(portfolio|balance|account|cash|total value|net worth|how am i doing|how('s| is) it going|money|funds|equity)\b/;
const BACKTEST = /\bbacktest/;
/** An order or a setting change asked of the assistant, which only answers questions. */
const ACTION = /^(please )?(stop|start|pause|resume|reset|buy|sell|close|place|execute|open|set|change|turn (on|off)|enable|disable)\b|\bcan you (please )?(buy|sell|place|start|stop|close|trade|change|set|reset|execute|open)\b/;

/** The question's intent and its coin, term and side. */
export function recognise(message: string, history: readonly Pick<ChatHistoryMessage, 'role' | 'content'>[] = []): Recognised {
  const own = recogniseOne(message);
  if (own.intent !== 'unknown' && !(own.intent === 'price' && own.fromCoinOnly)) return strip(own);
  // A follow-up that names a coin ("and BTC?", "what about solana") keeps the previous question's intent.
  if (own.symbol) {
    const previous = [...history].reverse().find((m) => m.role === 'user');
    if (previous) {
      const before = recogniseOne(previous.content);
      if (COIN_INTENTS.has(before.intent)) return { intent: before.intent, symbol: own.symbol, term: null, side: before.side };
    }
  }
  return strip(own);
}

const strip = (r: Recognised & { fromCoinOnly?: boolean }): Recognised => ({ intent: r.intent, symbol: r.symbol, term: r.term, side: r.side, ...(r.whatIf ? { whatIf: r.whatIf } : {}) });

function recogniseOne(message: string): Recognised & { fromCoinOnly?: boolean } {
  const text = normalise(message);
  const symbol = findCoin(message);
  const term = findTerm(message);
  const side = /\b(buy|bought|buys|purchase\w*)\b/.test(text) ? 'BUY' : /\b(sell|sold|sells)\b/.test(text) ? 'SELL' : null;
  const is = (intent: Intent, extra: Partial<Recognised> = {}): Recognised => ({ intent, symbol, term, side, ...extra });

  if (text === '' || test(HELP, text)) return is('help');
  if (test(GREETING_ONLY, text)) return is('greeting');
  if (test(WHAT_IF, text)) return is('what_if', { whatIf: parseWhatIf(text) });
  if (test(ACTION, text)) return is('action');
  if (test(PREDICTION_WORD, text) && (test(PRICE_MOVE, text) || symbol !== null || /\bpredict|forecast/.test(text))) return is('prediction');
  const definitional = test(DEFINITIONAL, text);
  const personal = test(PERSONAL, text);
  // "the verdict of the model" asks for the model's verdict; "what does a verdict mean" for the word.
  const aboutTheModel = term === 'model_verdict' && /\b(the|your) (model|ai)\b|\bmodel's\b/.test(text) && !/\b(mean|means|explain|define|definition)\b/.test(text);
  if (term && definitional && !personal && !aboutTheModel && !(INDICATOR_TERMS.has(term) && (symbol !== null || test(NOW, text)))) return is('explain');
  if (test(BACKTEST, text)) return is('my_backtests');
  if (test(WHY, text) && test(REFUSAL, text) && (test(TRADE_WORD, text) || test(BOT, text))) return is('bot_refusals');
  if (/\b(refus\w*|reject\w*|skipped|declined|blocked)\b/.test(text) && (test(BOT, text) || /\bsignals?\b/.test(text))) return is('bot_refusals');
  if (test(WHY, text) && test(TRADE_WORD, text)) return is('trade_reason');
  if (test(ALERTS, text)) return is('alerts');
  if (test(WHO, text)) return is('who_am_i');
  if (test(SUBSCRIPTION, text)) return is('subscription');
  if (test(MODEL, text)) return is('model');
  if (test(BOT, text) && test(BOT_STATE, text) && !test(RISK_PROFILE, text)) return is('bot_status');
  if (test(RISK_STATUS, text) || (/\b(daily loss|loss limit)\b/.test(text) && test(RISK_STATUS_CONTEXT, text))) return is('risk_status');
  if (test(RISK_PROFILE, text)) return is('risk_profile');
  if (test(POSITIONS, text) || (symbol !== null && test(HOLD_COIN, text))) return is('positions');
  if (test(TRADE_STATS, text)) return is('trade_stats');
  if (test(SIGNAL, text)) return is('signal');
  if ((term && INDICATOR_TERMS.has(term)) || test(INDICATORS, text)) return is('indicators');
  if (test(RECENT_TRADES, text)) return is('recent_trades');
  if (test(TODAY, text) && test(PNL, text)) return is('pnl_today');
  if (test(PNL_TOTAL, text)) return is('pnl_total');
  if (test(PRICE, text) && symbol) return is('price');
  if (test(PORTFOLIO, text)) return is('portfolio');
  if (term) return is('explain');
  if (test(/^(hi|hello|hey)\b/, text)) return is('greeting');
  if (symbol) return { ...is('price'), fromCoinOnly: true };
  return is('unknown');
}
