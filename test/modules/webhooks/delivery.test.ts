import { startTestServer } from '../../support/server.js';
import { deliverySuite } from './delivery.suite.js';

deliverySuite('webhook delivery', () => startTestServer());
