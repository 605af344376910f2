// The test game's own strings (uk): its lobby tile's line and its options' labels. The test
// game runs only where tests put it (PARTYHUB_EXTRA_APPS=tests.testgame); its static folder is
// found as an app's.
export default {
 "count.about": "Лічіть разом до N, по числу за хід (тестова гра платформи).",
 "opt.count.target": "Ціль",
 "opt.count.turn_seconds": "Час ходу"
};
