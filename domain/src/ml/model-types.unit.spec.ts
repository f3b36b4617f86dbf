/** Each model type's description is its own: the name, complexity and id a user picks from. */
import { expect } from 'chai';
import { modelTypeIds, modelTypeInfo } from './model-types';

describe('model types', function () {
  it('the info of each type is that type\'s', function () {
    expect(modelTypeInfo('neural_network')).to.deep.include({ id: 'neural_network', name: 'Neural Network', complexity: 'High' });
    expect(modelTypeInfo('gradient_boosting')).to.deep.include({ id: 'gradient_boosting', name: 'Gradient Boosting', complexity: 'Medium' });
    expect(modelTypeInfo('logistic_regression')).to.deep.include({ id: 'logistic_regression', name: 'Logistic Regression', complexity: 'Low' });
    for (const id of modelTypeIds) expect(modelTypeInfo(id).id).to.equal(id);
  });
});
