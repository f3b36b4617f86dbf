/**
 * The spec's cancel dialog (section 2): access continues 30 more days, then the user is downgraded
 * to Free, and reactivation is possible before the end date. A plain module so the browser tests
 * check the same words.
 */
export const CANCEL_DIALOG_TITLE = 'Cancel Subscription';
export const CANCEL_DIALOG_TEXT =
  'Are you sure you want to cancel your Premium subscription? You will keep access to all Premium features for 30 more days, after which your account will be downgraded to the Free plan. You can reactivate your subscription at any time before the end date.';
