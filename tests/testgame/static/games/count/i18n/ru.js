// The test game's own strings (ru): its lobby tile's line and its options' labels. The test
// game runs only where tests put it (PARTYHUB_EXTRA_APPS=tests.testgame); its static folder is
// found as an app's.
export default {
 "count.about": "Считайте вместе до N, по числу за ход (тестовая игра платформы).",
 "opt.count.target": "Цель",
 "opt.count.turn_seconds": "Время хода"
};
