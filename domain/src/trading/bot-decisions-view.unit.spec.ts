/**
 * The `bot-decisions` read model (why the bot did not trade): one document per user, the refusals
 * newest first, each once (a redelivered event adds nothing), at most 50; other events leave it alone;
 * no document answers an empty list.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { tradeIdFor } from './bot-trade-decision';
import { BOT_DECISIONS_PROJECTION, botDecisionsDocumentId, botDecisionsResponse, evolveBotDecisionsView, type BotDecisionsView } from './bot-decisions-view';
import { BOT_DECISIONS_KEPT } from './read-contracts';
import type { BotSignalRefused } from './risk';

const refused = (signalId: string, refusedAt: string, userId = 'u1'): BotSignalRefused => ({
  type: 'BotSignalRefused',
  data: { userId, signalId, signalEventId: `e-${signalId}`, symbol: 'ETH', signalType: 'BUY', candleTime: refusedAt, decision: { rule: 'MAX_DRAWDOWN', text: 'refused: drawdown 12% above 10%', figures: { drawdown: 12 } }, refusedAt },
});
const at = (minute: number) => new Date(Date.UTC(2026, 2, 4, 10, minute)).toISOString();
const fold = (events: DomainEvent[]) => events.reduce<BotDecisionsView | null>(evolveBotDecisionsView, null);

describe('bot decisions read model', function () {
  it("its name, and one document per user for refusals only", function () {
    expect(BOT_DECISIONS_PROJECTION).to.equal('bot-decisions');
    expect(botDecisionsDocumentId(refused('s1', at(0), 'u7'))).to.equal('u7');
    expect(botDecisionsDocumentId({ type: 'BotSignalRefused', data: { userId: 7 } })).to.equal(null);
    expect(botDecisionsDocumentId({ type: 'RiskAlertRaised', data: { userId: 'u1' } })).to.equal(null);
  });

  it('a refusal as the screen lists it: the id of the trade it would have been, the signal, the rule, its words and figures, when', function () {
    expect(fold([refused('s1', at(0))])).to.deep.equal({
      userId: 'u1',
      refusals: [{ id: tradeIdFor('s1', 'u1'), signalId: 's1', symbol: 'ETH', signalType: 'BUY', rule: 'MAX_DRAWDOWN', text: 'refused: drawdown 12% above 10%', figures: { drawdown: 12 }, timestamp: at(0) }],
      updatedAt: at(0),
    });
  });

  it('newest first, each once, at most 50; other events change nothing', function () {
    const doc = fold([refused('s1', at(0)), refused('s2', at(1)), refused('s1', at(2))]);
    expect(doc!.refusals.map((r) => r.signalId)).to.deep.equal(['s2', 's1']);
    expect(doc!.updatedAt, 'a redelivered refusal changes nothing').to.equal(at(1));
    expect(evolveBotDecisionsView(doc, { type: 'RiskAlertRaised', data: { userId: 'u1' } })).to.equal(doc);
    expect(evolveBotDecisionsView(null, { type: 'RiskAlertRaised', data: { userId: 'u1' } })).to.equal(null);
    const many = fold(Array.from({ length: BOT_DECISIONS_KEPT + 5 }, (_, i) => refused(`s${i}`, at(i))));
    expect(BOT_DECISIONS_KEPT).to.equal(50);
    expect(many!.refusals).to.have.length(50);
    expect(many!.refusals[0]!.signalId).to.equal('s54');
    expect(many!.refusals[49]!.signalId).to.equal('s5');
  });

  it('the answer: the refusals, or none without a document', function () {
    expect(botDecisionsResponse(null)).to.deep.equal({ refusals: [] });
    const doc = fold([refused('s1', at(0))])!;
    expect(botDecisionsResponse(doc)).to.deep.equal({ refusals: doc.refusals });
  });
});
