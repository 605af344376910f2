// The hand-over strings in Ukrainian (common/handover/handover.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "handover.new_phone": "Місце «{seat}» перейшло на новий телефон: схвалено на телевізорі",
 "handover.spectator": "Місце «{seat}» перейшло до {name} (з глядачів): схвалено на телевізорі",
 "handover.old_phone": "Місце «{seat}» повернулося на попередній телефон: схвалено на телевізорі",
 "handed.title": "Ваше місце передали іншому телефону",
 "handed.hint": "Це схвалили на телевізорі: за місце «{seat}» тепер грають з іншого телефона. Якщо це були не ви, попросіть його назад, і телевізор вирішить знову.",
 "handed.ask": "Попросити місце назад",
 "handed.other": "Приєднатися під іншим ім'ям",
 "handed.err.not_claimable": "Цього місця в кімнаті вже немає."
};
