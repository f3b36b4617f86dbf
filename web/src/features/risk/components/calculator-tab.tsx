/** The Calculator tab: position size and stop loss, computed in the browser (no calls). */
import { useState } from 'react';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { Panel } from '../../../components/ui/panel';
import { formatCoinAmount, formatPercent, formatPrice, formatUsd } from '../../../lib/number-format';
import { calculatePositionSize, calculateStopLoss, type TradeSide } from '../risk-calculator';

function NumberField({ id, label, value, onChange, step }: { id: string; label: string; value: string; onChange: (v: string) => void; step?: number }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="number" inputMode="decimal" step={step ?? 'any'} value={value} data-testid={id} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function CalculatorTab() {
  const [balance, setBalance] = useState('10000');
  const [riskPercent, setRiskPercent] = useState('2');
  const [entry, setEntry] = useState('');
  const [stop, setStop] = useState('');
  const size = calculatePositionSize({ accountBalance: Number(balance), riskPercent: Number(riskPercent), entryPrice: Number(entry), stopLossPrice: Number(stop) });

  const [slEntry, setSlEntry] = useState('');
  const [slPercent, setSlPercent] = useState(String(DEFAULT_RISK_PARAMETERS.stopLossValue));
  const [ratio, setRatio] = useState(String(DEFAULT_RISK_PARAMETERS.riskRewardRatio));
  const [side, setSide] = useState<TradeSide>('long');
  const levels = calculateStopLoss({ entryPrice: Number(slEntry), stopLossPercent: Number(slPercent), riskRewardRatio: Number(ratio), side });

  return (
    <div className="risk-calculators">
      <Panel title="Position Size Calculator" testId="position-size-calculator">
        <div className="risk-screen__grid">
          <NumberField id="calc-balance" label="Account Balance ($)" value={balance} onChange={setBalance} />
          <NumberField id="calc-risk" label="Risk per Trade (%)" value={riskPercent} onChange={setRiskPercent} step={0.1} />
          <NumberField id="calc-entry" label="Entry Price ($)" value={entry} onChange={setEntry} />
          <NumberField id="calc-stop" label="Stop Loss Price ($)" value={stop} onChange={setStop} />
        </div>
        <div className="risk-meter" data-testid="position-size-result">
          {size.ok ? (
            <dl className="kv">
              <div>
                <dt>Position Size</dt>
                <dd data-testid="calc-quantity">{formatCoinAmount(size.value.quantity)}</dd>
              </div>
              <div>
                <dt>Position Value</dt>
                <dd data-testid="calc-value">{formatUsd(size.value.positionValue)}</dd>
              </div>
              <div>
                <dt>Amount at Risk</dt>
                <dd data-testid="calc-risk-amount">{formatUsd(size.value.riskAmount)}</dd>
              </div>
              <div>
                <dt>Share of Account</dt>
                <dd>{formatPercent(size.value.percentOfAccount)}</dd>
              </div>
            </dl>
          ) : (
            <p className="empty-text">{size.error}</p>
          )}
        </div>
      </Panel>
      <Panel title="Stop Loss Calculator" testId="stop-loss-calculator">
        <div className="risk-screen__grid">
          <NumberField id="sl-entry" label="Entry Price ($)" value={slEntry} onChange={setSlEntry} />
          <NumberField id="sl-percent" label="Stop Loss (%)" value={slPercent} onChange={setSlPercent} step={0.1} />
          <NumberField id="sl-ratio" label="Risk/Reward Ratio" value={ratio} onChange={setRatio} step={0.1} />
          <div className="field">
            <label className="field__label" htmlFor="sl-side">
              Side
            </label>
            <select id="sl-side" className="input" value={side} data-testid="sl-side" onChange={(e) => setSide(e.target.value === 'short' ? 'short' : 'long')}>
              <option value="long">Long</option>
              <option value="short">Short</option>
            </select>
          </div>
        </div>
        <div className="risk-meter" data-testid="stop-loss-result">
          {levels.ok ? (
            <dl className="kv">
              <div>
                <dt>Stop Loss Price</dt>
                <dd data-testid="sl-stop">{formatPrice(levels.value.stopLossPrice)}</dd>
              </div>
              <div>
                <dt>Take Profit Price</dt>
                <dd data-testid="sl-target">{formatPrice(levels.value.takeProfitPrice)}</dd>
              </div>
              <div>
                <dt>Risk per Unit</dt>
                <dd>{formatPrice(levels.value.riskPerUnit)}</dd>
              </div>
              <div>
                <dt>Reward per Unit</dt>
                <dd>{formatPrice(levels.value.rewardPerUnit)}</dd>
              </div>
            </dl>
          ) : (
            <p className="empty-text">{levels.error}</p>
          )}
        </div>
      </Panel>
    </div>
  );
}
