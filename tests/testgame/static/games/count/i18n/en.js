// The test game's own strings (en): its lobby tile's line and its options' labels. The test
// game runs only where tests put it (PARTYHUB_EXTRA_APPS=tests.testgame); its static folder is
// found as an app's.
export default {
 "count.about": "Count together to N, one number a turn (the platform's test game).",
 "opt.count.target": "Target",
 "opt.count.turn_seconds": "Turn time"
};
