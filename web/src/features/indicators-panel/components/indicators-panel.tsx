/**
 * The technical indicators panel: the selected coin's latest readings (GET /api/indicators?symbol=,
 * 30 s) with the section 9 labels from ../indicator-rules.ts. A reading the server cannot compute
 * yet shows a dash, never an invented verdict. The MACD bar's width is MACD in basis points of the
 * answer's price (the same candle's close), its tooltip the arithmetic.
 */
import type { ReactNode } from 'react';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { formatPrice, formatReading, MISSING } from '../../../lib/number-format';
import { INDICATORS_ERROR, useIndicators } from '../api/get-indicators';
import { indicatorLabels } from '../indicator-rules';
import './indicators-panel.css';

const LABEL_CLASS: Record<string, string> = {
  Oversold: 'up',
  Overbought: 'down',
  Bullish: 'up',
  Bearish: 'down',
  'Above MA': 'up',
  'Below MA': 'down',
  'Above average': 'up',
  'Below average': 'down',
};

function Row({ name, value, label, testId, children }: { name: string; value: string; label: string | null; testId: string; children?: ReactNode }) {
  return (
    <div className="indicator" data-testid={testId}>
      <div className="indicator__line">
        <span className="indicator__name">{name}</span>
        <span className="indicator__value num">{value}</span>
        <span className={`indicator__label ${label ? (LABEL_CLASS[label] ?? 'flat') : 'flat'}`} data-testid={`${testId}-label`}>
          {label ?? MISSING}
        </span>
      </div>
      {children}
    </div>
  );
}

export function IndicatorsPanel({ symbol }: { symbol: string }) {
  const indicators = useIndicators(symbol);
  const data = indicators.data;
  const labels = data ? indicatorLabels(data) : null;
  return (
    <Panel title="Technical Indicators" testId="indicators-panel" actions={data && <span className="badge">{data.interval} candles</span>}>
      {indicators.isError && <FetchError text={INDICATORS_ERROR} error={indicators.error} />}
      {data && labels && (
        <>
          <Row name="RSI (14)" value={formatReading(data.rsi)} label={labels.rsi} testId="indicator-rsi" />
          <Row
            name="MACD"
            value={data.macd !== null && data.macdSignal !== null ? `${formatReading(data.macd)} / ${formatReading(data.macdSignal)}` : MISSING}
            label={labels.macd}
            testId="indicator-macd"
          >
            {/* The bar's MACD is in basis points of the price, so it means the same for every coin; the tooltip says so. */}
            <div className="indicator__bar" role="img" aria-label={labels.macdBarTooltip} title={labels.macdBarTooltip} data-testid="macd-bar-track">
              <span
                className={`indicator__bar-fill ${labels.macd === 'Bullish' ? 'indicator__bar-fill--up' : 'indicator__bar-fill--down'}`}
                style={{ width: `${labels.macdBarWidthPercent}%` }}
                data-testid="macd-bar"
              />
            </div>
          </Row>
          <Row name="MA20" value={formatPrice(data.ma20)} label={labels.ma} testId="indicator-ma" />
          <Row name="Volume" value={data.volume ?? MISSING} label={labels.volume} testId="indicator-volume" />
        </>
      )}
    </Panel>
  );
}
