import { freshDatabase } from '../../support/engine.js';
import { crashSuite } from './crash.suite.js';

crashSuite('webhooks across a crash', freshDatabase);
