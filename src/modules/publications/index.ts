/** What other modules use of publications: giving a voucher to a customer, and recording it. */
export { claimVoucher, giveCampaignVoucher, type Given, type Who } from './give-voucher.service.js';
export { recordPublication } from './publications.service.js';
export { onPublicationSucceeded } from './publication.seam.js';
export { getCreatedPublication } from './publications.service.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { clearTrackingIds as erasePublicationCustomer } from './publications.repository.js';
