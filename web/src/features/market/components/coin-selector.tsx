/**
 * The header's coin selector (spec section 2): a button showing the selected coin and its live price
 * (../api/use-live-quote.ts, the very figure of the Current Price card), opening a modal dialog 'Select Cryptocurrency' with a search
 * box, the Popular row and every supported coin with its price and 24 h change (/api/coins/prices,
 * 30 s, polled only while the dialog is open).
 *
 * Keyboard: a native <dialog> opened with showModal makes the page behind it inert; focus goes to
 * the search box (a text input: in a search input Chromium's Escape would only clear the text), Tab and Shift+Tab cycle inside the dialog (the browser would otherwise let focus
 * out to its own toolbar), Escape closes it, and focus returns to the trigger.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { FetchError } from '../../../components/ui/fetch-error';
import { direction, formatPrice, formatSignedPercent } from '../../../lib/number-format';
import { coinRows, filterCoins, popularCoins, type CoinRow } from '../coin-search';
import { COIN_PRICES_ERROR, useCoinPrices } from '../api/get-coin-prices';
import { SUPPORTED_COINS_ERROR, useSupportedCoins } from '../api/get-supported-coins';
import { useLiveQuote } from '../api/use-live-quote';
import { coinSelected, selectSelectedCoin, type StateWithSelectedCoin } from '../stores/selected-coin-slice';
import './coin-selector.css';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

function CoinGlyph({ icon, color }: { icon: string; color: string }) {
  return (
    <span className="coin-glyph" style={{ background: `color-mix(in srgb, ${color} 22%, transparent)`, color }} aria-hidden="true">
      {icon}
    </span>
  );
}

export function CoinSelector() {
  const coin = useSelector((state: StateWithSelectedCoin) => selectSelectedCoin(state));
  const dispatch = useDispatch();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const dialogRef = useRef<HTMLDialogElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const titleId = useId();

  const supported = useSupportedCoins();
  const prices = useCoinPrices({ enabled: open });
  const { quote } = useLiveQuote(coin);
  const info = supported.data?.[coin.id as keyof typeof supported.data];

  const rows = useMemo(() => (supported.data ? coinRows(supported.data, prices.data) : []), [supported.data, prices.data]);
  const shown = useMemo(() => filterCoins(rows, query), [rows, query]);
  const popular = useMemo(() => popularCoins(rows), [rows]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      searchRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  // Escape (the dialog's cancel), a choice and a backdrop click all end here.
  const onClose = () => {
    setOpen(false);
    setQuery('');
    triggerRef.current?.focus();
  };

  const choose = (row: CoinRow) => {
    dispatch(coinSelected({ id: row.id, symbol: row.symbol }));
    dialogRef.current?.close();
  };

  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const change = quote?.changePercent24h ?? null;

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="coin-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        data-testid="coin-selector-trigger"
      >
        {info && <CoinGlyph icon={info.icon} color={info.color} />}
        <span className="coin-trigger__name">
          <span className="coin-trigger__label">{info?.name ?? coin.symbol}</span>
          <span className="coin-trigger__symbol">{coin.symbol}</span>
        </span>
        <span className="coin-trigger__quote num">
          <span data-testid="coin-selector-price">{formatPrice(quote?.price)}</span>
          <span className={direction(change)} data-testid="coin-selector-change">
            {formatSignedPercent(change)}
          </span>
        </span>
        <span className="visually-hidden">Change coin</span>
        <svg className="coin-trigger__chevron" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>

      <dialog
        ref={dialogRef}
        className="coin-dialog"
        aria-labelledby={titleId}
        onClose={onClose}
        onKeyDown={trapFocus}
        onClick={(event) => {
          if (event.target === dialogRef.current) dialogRef.current.close();
        }}
        data-testid="coin-dialog"
      >
        {open && (
          <div className="coin-dialog__content">
            <header className="coin-dialog__header">
              <h2 id={titleId}>Select Cryptocurrency</h2>
              <button type="button" className="btn btn--ghost btn--sm" aria-label="Close" onClick={() => dialogRef.current?.close()}>
                <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                  <path d="M18 6 6 18M6 6l12 12" />
                </svg>
              </button>
            </header>
            <input
              ref={searchRef}
              className="input"
              type="text"
              role="searchbox"
              placeholder="Search coins..."
              aria-label="Search coins"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            {popular.length > 0 && (
              <div className="coin-dialog__popular" role="group" aria-label="Popular">
                <span className="coin-dialog__popular-label">Popular</span>
                {popular.map((row) => (
                  <button key={row.id} type="button" className="btn btn--sm" aria-pressed={row.id === coin.id} onClick={() => choose(row)}>
                    {row.symbol}
                  </button>
                ))}
              </div>
            )}
            {supported.isError && <FetchError text={SUPPORTED_COINS_ERROR} error={supported.error} />}
            {prices.isError && <FetchError text={COIN_PRICES_ERROR} error={prices.error} />}
            {supported.isSuccess && shown.length === 0 && <p className="empty-text coin-dialog__empty">No coins found</p>}
            <ul className="coin-dialog__list" aria-label="Coins" data-testid="coin-list">
              {shown.map((row) => (
                <li key={row.id}>
                  <button type="button" className="coin-row" aria-current={row.id === coin.id ? 'true' : undefined} onClick={() => choose(row)} data-testid={`coin-option-${row.id}`}>
                    <CoinGlyph icon={row.icon} color={row.color} />
                    <span className="coin-row__name">
                      <span>{row.name}</span>
                      <span className="coin-row__symbol">{row.symbol}</span>
                    </span>
                    <span className="coin-row__quote num">
                      <span>{formatPrice(row.price)}</span>
                      <span className={direction(row.changePercent24h)}>{formatSignedPercent(row.changePercent24h)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </dialog>
    </>
  );
}
