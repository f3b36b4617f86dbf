/**
 * The AI Models screen's request and texts (issue 19): POST /api/ml/create-model takes a known model
 * type, 7 to 365 training days (30 by default) and the type's own parameters (each type's defaults for
 * `{}`, unknown names refused by name, a bad value reported under `parameters.<name>`); the training
 * time reads in tenths of a second, seconds or minutes; an accuracy above 80 % is High, above 60 %
 * Medium, else Low.
 */
import { expect } from 'chai';
import { accuracyLevel, createModelRequestSchema, NOT_MEASURED_YET, trainingTimeText } from './contracts';

const issues = (body: unknown) => {
  const parsed = createModelRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('ML contracts', function () {
  it("a model request: the type's defaults for {} and 30 days", function () {
    expect(createModelRequestSchema.parse({ modelType: 'logistic_regression' })).to.deep.equal({ modelType: 'logistic_regression', trainingDays: 30, parameters: { l2: 1 } });
    expect(createModelRequestSchema.parse({ modelType: 'gradient_boosting', trainingDays: 7, parameters: { rounds: 10 } })).to.deep.include({ trainingDays: 7 });
    expect(createModelRequestSchema.parse({ modelType: 'gradient_boosting', trainingDays: 365, parameters: { rounds: 10 } }).parameters).to.deep.include({ rounds: 10, maxDepth: 3, learningRate: 0.1, subsample: 0.8 });
  });

  it('refuses an unknown type, days out of range or not whole, parameters not an object', function () {
    expect(issues({ modelType: 'svm' })).to.deep.equal([{ path: 'modelType', message: 'modelType must be one of neural_network, gradient_boosting, logistic_regression' }]);
    expect(issues({ modelType: 'logistic_regression', trainingDays: 6 })).to.deep.equal([{ path: 'trainingDays', message: 'trainingDays must be from 7 to 365' }]);
    expect(issues({ modelType: 'logistic_regression', trainingDays: 366 })).to.deep.equal([{ path: 'trainingDays', message: 'trainingDays must be from 7 to 365' }]);
    expect(issues({ modelType: 'logistic_regression', trainingDays: 30.5 })).to.deep.equal([{ path: 'trainingDays', message: 'trainingDays must be a whole number from 7 to 365' }]);
    expect(issues({ modelType: 'logistic_regression', parameters: [1] })).to.deep.equal([{ path: 'parameters', message: 'parameters must be an object' }]);
    expect(issues({ modelType: 'logistic_regression', extra: 1 })).to.have.length(1);
  });

  it("the type's parameters: an unknown name refused by name for that type, a bad value under its own path, every issue reported", function () {
    expect(issues({ modelType: 'logistic_regression', parameters: { depth: 3, width: 2 } })).to.deep.equal([{ path: 'parameters', message: 'unknown parameter for logistic_regression: depth, width' }]);
    expect(issues({ modelType: 'logistic_regression', parameters: { l2: 101 } })).to.deep.equal([{ path: 'parameters.l2', message: 'l2 must be from 0 to 100' }]);
    expect(issues({ modelType: 'neural_network', parameters: { hiddenUnits: 1, epochs: 101 } })).to.deep.equal([
      { path: 'parameters.hiddenUnits', message: 'hiddenUnits must be from 2 to 64' },
      { path: 'parameters.epochs', message: 'epochs must be from 1 to 100' },
    ]);
  });

  it('training time: tenths of a second under 10 s, whole seconds under 2 minutes, then minutes; none yet said so', function () {
    expect(trainingTimeText(null)).to.equal(NOT_MEASURED_YET);
    expect(NOT_MEASURED_YET).to.equal('not measured yet');
    expect(trainingTimeText(0)).to.equal('0.0 s');
    expect(trainingTimeText(9_949)).to.equal('9.9 s');
    expect(trainingTimeText(10_000)).to.equal('10 s');
    expect(trainingTimeText(119_400)).to.equal('119 s');
    expect(trainingTimeText(120_000)).to.equal('2.0 min');
    expect(trainingTimeText(754_000)).to.equal('12.6 min');
  });

  it('accuracy level: above 80 High, above 60 Medium, else Low (80 and 60 themselves one level down)', function () {
    expect([80.01, 80, 60.01, 60, 0].map(accuracyLevel)).to.deep.equal(['High', 'Medium', 'Medium', 'Low', 'Low']);
  });
});
