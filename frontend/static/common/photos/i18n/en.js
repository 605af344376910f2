// Table photos' strings (common/photos/photos.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "photo.title": "Your photos for the table",
 "photo.hint": "Add up to {n} of your own pictures: they join the cards of this room's games, and go when the room ends.",
 "photo.off": "The host has turned table photos off: yours are not dealt. Take them away if you like; they go with the room anyway.",
 "photo.add": {
  "one": "Add a photo ({n} more)",
  "other": "Add your photos ({n} more)"
 },
 "photo.full": "You have added {n} photos: take one away to add another.",
 "photo.yours": "Your photo {n}",
 "photo.remove": "Take this photo away",
 "photo.err.too_many_photos": "A phone may add at most 5 photos.",
 "photo.err.photos_off": "The host has turned table photos off.",
 "photo.err.photo_not_found": "That photo is already gone.",
 "photo.err.game_running": "Photos are added and taken away in the lobby.",
 "photo.err.upload_busy": "Another photo is being prepared: try again in a moment.",
 "photo.err.not_an_image": "not a picture",
 "photo.err.unsupported_format": "only JPEG, PNG and WebP pictures",
 "photo.err.too_large": "larger than 10 MB",
 "photo.err.too_many_pixels": "too many pixels",
 "photo.err.broken_image": "the picture cannot be read",
 "photo.err.deck_full": "no room for more photos",
 "photo.count": {
  "one": "📷 {n} table photo",
  "other": "📷 {n} table photos"
 },
 "photo.nth": "Table photo {n}"
};
