// FeedgenEmit — placeholder, replaced as the stage is written.
