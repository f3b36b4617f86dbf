/**
 * A manual paper trade of the selected coin (POST /api/trades): BUY or SELL an amount of coins at
 * the market price. The answer's fill price and fee are shown; a refusal shows the server's problem
 * message (not enough cash, nothing to sell, bad amount). Visitors get a link to log in instead:
 * only a signed-in user has a paper portfolio of their own.
 *
 * A BUY may set a stop loss and a take profit in percent of the fill price (optional, issue 17): a
 * manual position keeps no automatic exit unless its person sets one here (the bot's positions follow
 * the risk profile). The levels the server set are shown with the fill.
 *
 * Before a BUY the form asks `checkBuy` (composed by the screen from the price, the portfolio and
 * the risk profile: features do not import each other) whether the position would pass the maximum
 * position size; if so it places nothing until the person confirms in a dialog, and cancelling
 * places nothing at all. A check that cannot be made (a read failed) places nothing either and says
 * why.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { QueryKey } from '@tanstack/react-query';
import { manualExitBounds, tradeSides } from '@papertrade/domain/trading/contracts';
import { describeError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { formatPrice, formatUsd } from '../../../lib/number-format';
import { usePlaceTrade } from '../api/place-trade';
import type { PositionSizeWarning } from '../position-size';
import { formatAmount } from '../trade-format';
import { PositionSizeDialog } from './position-size-dialog';
import './paper-trading.css';

type Side = (typeof tradeSides)[number];
type Exits = { stopLossPercent?: number; takeProfitPercent?: number };

export function TradeForm({ coinId, symbol, invalidates, checkBuy }: {
  coinId: string;
  symbol: string;
  invalidates: readonly QueryKey[];
  /** Whether buying this many coins would pass the maximum position size (null when it would not). */
  checkBuy?: (amount: number) => Promise<PositionSizeWarning | null>;
}) {
  const { user } = useAuth();
  const [side, setSide] = useState<Side>('BUY');
  const [amount, setAmount] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  /** The BUY waiting for the person's answer, with the warning the dialog shows. */
  const [pending, setPending] = useState<{ amount: number; exits: Exits; warning: PositionSizeWarning } | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const place = usePlaceTrade({ invalidates });

  if (user === null) {
    return (
      <div className="trade-form" data-testid="trade-form">
        <p className="trade-form__note">
          <Link to="/login">Login</Link> to place paper trades.
        </p>
      </div>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The server validates too (and says why); this only keeps an empty field from being sent.
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isFinite(value) || checking) return;
    // Optional percents: sent as typed (the server says what is out of bounds); empty is none.
    const exits: Exits = {};
    if (side === 'BUY' && stopLoss.trim() !== '') exits.stopLossPercent = Number(stopLoss);
    if (side === 'BUY' && takeProfit.trim() !== '') exits.takeProfitPercent = Number(takeProfit);
    setCheckError(null);
    if (side === 'BUY' && checkBuy && value > 0) {
      setChecking(true);
      try {
        const warning = await checkBuy(value);
        if (warning) {
          setPending({ amount: value, exits, warning });
          return;
        }
      } catch (error) {
        setCheckError(describeError(error, 'The trade could not be checked against your maximum position size'));
        return;
      } finally {
        setChecking(false);
      }
    }
    place.mutate({ coinId, type: side, amount: value, ...exits });
  }

  function answer(confirmed: boolean) {
    const waiting = pending;
    setPending(null);
    submitRef.current?.focus();
    if (confirmed && waiting) place.mutate({ coinId, type: 'BUY', amount: waiting.amount, ...waiting.exits });
  }

  const filled = place.data;
  return (
    <form className="trade-form" data-testid="trade-form" onSubmit={(event) => void submit(event)} noValidate>
      <p className="trade-form__note">
        Paper trade {symbol} at the market price <span className="badge">SIMULATION</span>
      </p>
      <div className="trade-form__row">
        <select className="input" aria-label="Trade type" data-testid="trade-side" value={side} onChange={(e) => setSide(e.target.value as Side)}>
          {tradeSides.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <input
          className="input num"
          type="number"
          inputMode="decimal"
          min="0"
          step="any"
          placeholder={`Amount (${symbol})`}
          aria-label={`Amount (${symbol})`}
          data-testid="trade-amount-input"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </div>
      {side === 'BUY' && (
        <div className="trade-form__row">
          <input
            className="input num"
            type="number"
            inputMode="decimal"
            min={manualExitBounds.stopLossPercent.min}
            max={manualExitBounds.stopLossPercent.max}
            step={manualExitBounds.stopLossPercent.step}
            placeholder="Stop loss %"
            aria-label="Stop loss, percent below the fill price (optional)"
            data-testid="trade-stop-loss-input"
            value={stopLoss}
            onChange={(e) => setStopLoss(e.target.value)}
          />
          <input
            className="input num"
            type="number"
            inputMode="decimal"
            min={manualExitBounds.takeProfitPercent.min}
            max={manualExitBounds.takeProfitPercent.max}
            step={manualExitBounds.takeProfitPercent.step}
            placeholder="Take profit %"
            aria-label="Take profit, percent above the fill price (optional)"
            data-testid="trade-take-profit-input"
            value={takeProfit}
            onChange={(e) => setTakeProfit(e.target.value)}
          />
        </div>
      )}
      <button ref={submitRef} type="submit" className="btn btn--sm" data-testid="trade-submit" disabled={place.isPending || checking || amount.trim() === ''}>
        {place.isPending || checking ? 'Placing...' : `Place ${side}`}
      </button>
      {filled && !place.isError && (
        <p className="trade-form__result" role="status" data-testid="trade-result">
          {filled.type} {formatAmount(filled.amount, filled.symbol)} filled at {formatPrice(filled.price)}, fee {formatUsd(filled.fee)}
          {filled.type === 'BUY' && (filled.stopLoss !== null || filled.takeProfit !== null)
            ? `; stop loss ${filled.stopLoss === null ? 'none' : formatPrice(filled.stopLoss)}, take profit ${filled.takeProfit === null ? 'none' : formatPrice(filled.takeProfit)}`
            : filled.type === 'BUY'
              ? '; no automatic exit'
              : ''}
        </p>
      )}
      {place.isError && (
        <p className="trade-form__error" role="alert" data-testid="trade-error">
          {describeError(place.error, 'The trade could not be placed')}
        </p>
      )}
      {checkError && (
        <p className="trade-form__error" role="alert" data-testid="trade-check-error">
          {checkError}
        </p>
      )}
      <PositionSizeDialog warning={pending?.warning ?? null} side="BUY" symbol={symbol} onConfirm={() => answer(true)} onCancel={() => answer(false)} />
    </form>
  );
}
