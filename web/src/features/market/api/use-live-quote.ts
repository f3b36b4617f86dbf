/**
 * The selected coin's price as the dashboard shows it, in one place: GET /api/price?symbol= (every
 * 5 s, spec section 7) moved between polls by the real-time ticks, whichever is newer
 * (../live-price.ts). The header's coin selector and the Current Price card both read it, so they
 * never show two prices at the same moment (they read two endpoints polled at 5 and 10 s before,
 * and only the card followed the ticks).
 */
import { useLiveTick } from '../../../lib/realtime/realtime-hooks';
import { newestQuote } from '../live-price';
import type { SelectedCoin } from '../stores/selected-coin-slice';
import { usePrice } from './get-price';

export function useLiveQuote(coin: SelectedCoin) {
  const polled = usePrice(coin.symbol);
  const tick = useLiveTick(coin.id);
  return { quote: newestQuote(polled.data, tick), polled };
}
