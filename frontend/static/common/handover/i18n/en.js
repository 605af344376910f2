// The hand-over strings in English (common/handover/handover.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "handover.new_phone": "{seat}'s seat moved to a new phone: approved on the TV",
 "handover.spectator": "{seat}'s seat went to {name}: approved on the TV",
 "handover.old_phone": "{seat}'s seat went back to its earlier phone: approved on the TV",
 "handed.title": "Your seat was handed to another phone",
 "handed.hint": "This was approved on the TV: {seat}'s seat is now played from another phone. If that was not you, ask for it back and the TV decides again.",
 "handed.ask": "Ask for my seat back",
 "handed.other": "Join under another name",
 "handed.err.not_claimable": "That seat is no longer in the room."
};
